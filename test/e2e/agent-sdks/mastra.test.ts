import { createOpenAI } from '@ai-sdk/openai';
import { DEFAULT_ROUTES } from './default-routes';
import { runMastraLoop } from './mastra-tool-loop';
import { createRecordingFetch } from './record-requests';
import { useOfflineGateway } from './use-offline-gateway';
import { expectWeatherLoop } from './vercel-ai-sdk-tool-loop';

/**
 * Mastra agents on the AI SDK's OpenAI models. With the Responses model's default `store`, the
 * second step refers to the first step's output items by `item_reference`, and the gateway must
 * expand them; Mastra reports a failed step without throwing, so the loop helper turns that into a failure.
 */
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

  it.each(['generate', 'stream'] as const)(
    'Responses model with its default store (%s): sends item_reference in its second step, which the gateway expands, and answers from the tool result',
    async mode => {
      const recorder = createRecordingFetch();
      expectWeatherLoop(await runMastraLoop(openai(recorder).responses(route), mode), recorder.requests, '/v1/responses');
      const second = recorder.requests[1]?.body as { input: Array<{ type?: string }> };
      expect(second.input.filter(item => item.type === 'item_reference').length).toBeGreaterThanOrEqual(1);
    },
  );
});
