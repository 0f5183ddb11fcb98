import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createRecordingFetch, type RecordingFetch } from './record-requests';
import { useOfflineGateway } from './use-offline-gateway';
import { expectWeatherLoop, runToolLoop } from './vercel-ai-sdk-tool-loop';
import { DEFAULT_ROUTES } from './default-routes';

/**
 * Multi-step tool loops. With its defaults, the `@ai-sdk/openai` Responses model has `store` on, so
 * from the second step on it sends the earlier output items as `{"type":"item_reference","id":…}`
 * instead of repeating them, and the gateway must expand those from what it stored for the first
 * step — whatever the upstream protocol. See https://platform.openai.com/docs/api-reference/responses/create (input
 * items, "Item reference").
 */
describe.each(DEFAULT_ROUTES)('Vercel AI SDK multi-step tool loops on %s', route => {
  const gateway = useOfflineGateway();
  /** The provider settings for the gateway, with every request recorded. */
  const providerSettings = (recorder: RecordingFetch) => ({ baseURL: `${gateway.server.url}/v1`, apiKey: gateway.server.demoKey, fetch: recorder.fetch });

  it.each(['generate', 'stream'] as const)(
    '@ai-sdk/openai chat model (%s): runs get_weather, then answers from its result',
    async mode => {
      const recorder = createRecordingFetch();
      const openai = createOpenAI(providerSettings(recorder));
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
      const openai = createOpenAI(providerSettings(recorder));
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
      const anthropic = createAnthropic(providerSettings(recorder));
      expectWeatherLoop(await runToolLoop(anthropic(route), mode), recorder.requests, '/v1/messages');
    },
  );

  it.each(['generate', 'stream'] as const)(
    '@ai-sdk/openai responses model with its default store (%s): sends item_reference in its second step and still gets the answer from the tool result',
    async mode => {
      const recorder = createRecordingFetch();
      const openai = createOpenAI(providerSettings(recorder));
      expectWeatherLoop(await runToolLoop(openai.responses(route), mode), recorder.requests, '/v1/responses');
      const [first, second] = recorder.requests.map(
        request => request.body as { store?: boolean; input: Array<{ type?: string; id?: string }> },
      );
      expect(first?.store).toBeUndefined();
      const references = second?.input.filter(item => item.type === 'item_reference') ?? [];
      expect(references.length).toBeGreaterThanOrEqual(1);
      for (const reference of references) expect(reference.id).toEqual(expect.any(String));
    },
  );
});
