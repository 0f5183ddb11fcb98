import { createOpenAI } from '@ai-sdk/openai';
import { DEFAULT_ROUTES } from './default-routes';
import { runMastraLoop } from './mastra-tool-loop';
import { createRecordingFetch } from './record-requests';
import { useOfflineGateway } from './use-offline-gateway';
import { expectWeatherLoop } from './vercel-ai-sdk-tool-loop';

describe.each(DEFAULT_ROUTES)('Mastra agent tool loops on %s', route => {
  const gateway = useOfflineGateway();

  const openai = (recorder: ReturnType<typeof createRecordingFetch>) =>
    createOpenAI({ baseURL: `${gateway.server.url}/v1`, apiKey: gateway.server.demoKey, fetch: recorder.fetch });

  it.each(['generate', 'stream'] as const)(
    'OpenAI-compatible chat model (%s): runs get_weather, then answers from its result',
    async mode => {
      const recorder = createRecordingFetch();
      expectWeatherLoop(
        await runMastraLoop(openai(recorder).chat(route), mode),
        recorder.requests,
        '/v1/chat/completions',
      );
    },
  );

  it.each(['generate', 'stream'] as const)(
    'Responses model with store off (%s): runs get_weather, then answers from its result',
    async mode => {
      const recorder = createRecordingFetch();
      expectWeatherLoop(
        await runMastraLoop(openai(recorder).responses(route), mode, { openai: { store: false } }),
        recorder.requests,
        '/v1/responses',
      );
    },
  );
});
