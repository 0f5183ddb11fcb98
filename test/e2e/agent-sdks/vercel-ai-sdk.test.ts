import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createRecordingFetch } from './record-requests';
import { useOfflineGateway } from './use-offline-gateway';
import { expectWeatherLoop, runToolLoop } from './vercel-ai-sdk-tool-loop';
import { DEFAULT_ROUTES } from './default-routes';

describe.each(DEFAULT_ROUTES)('Vercel AI SDK multi-step tool loops on %s', route => {
  const gateway = useOfflineGateway();

  it.each(['generate', 'stream'] as const)(
    '@ai-sdk/openai chat model (%s): runs get_weather, then answers from its result',
    async mode => {
      const recorder = createRecordingFetch();
      const openai = createOpenAI({
        baseURL: `${gateway.server.url}/v1`,
        apiKey: gateway.server.demoKey,
        fetch: recorder.fetch,
      });
      expectWeatherLoop(
        await runToolLoop(openai.chat(route), mode),
        recorder.requests,
        '/v1/chat/completions',
      );
    },
  );

  it.each(['generate', 'stream'] as const)(
    '@ai-sdk/openai responses model with store off (%s): runs get_weather, then answers from its result',
    async mode => {
      const recorder = createRecordingFetch();
      const openai = createOpenAI({
        baseURL: `${gateway.server.url}/v1`,
        apiKey: gateway.server.demoKey,
        fetch: recorder.fetch,
      });
      expectWeatherLoop(
        await runToolLoop(openai.responses(route), mode, { openai: { store: false } }),
        recorder.requests,
        '/v1/responses',
      );
    },
  );

  it.each(['generate', 'stream'] as const)(
    '@ai-sdk/anthropic (%s): runs get_weather, then answers from its result',
    async mode => {
      const recorder = createRecordingFetch();
      const anthropic = createAnthropic({
        baseURL: `${gateway.server.url}/v1`,
        apiKey: gateway.server.demoKey,
        fetch: recorder.fetch,
      });
      expectWeatherLoop(await runToolLoop(anthropic(route), mode), recorder.requests, '/v1/messages');
    },
  );
});
