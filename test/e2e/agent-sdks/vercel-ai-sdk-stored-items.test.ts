import { createOpenAI } from '@ai-sdk/openai';
import { DEFAULT_ROUTES } from './default-routes';
import { createRecordingFetch } from './record-requests';
import { useOfflineGateway } from './use-offline-gateway';
import { expectWeatherLoop, runToolLoop } from './vercel-ai-sdk-tool-loop';

/**
 * The `@ai-sdk/openai` Responses model with its defaults: `store` is on, so from the second step on
 * the SDK sends the earlier output items as `{"type":"item_reference","id":…}` instead of repeating
 * them, and the gateway must expand those from what it stored for the first step — whatever the
 * upstream protocol. See https://platform.openai.com/docs/api-reference/responses/create (input
 * items, "Item reference").
 */
describe.each(DEFAULT_ROUTES)('Vercel AI SDK Responses model with its default store on %s', route => {
  const gateway = useOfflineGateway();

  it.each(['generate', 'stream'] as const)(
    '(%s) sends item_reference in its second step and still gets the answer from the tool result',
    async mode => {
      const recorder = createRecordingFetch();
      const openai = createOpenAI({
        baseURL: `${gateway.server.url}/v1`,
        apiKey: gateway.server.demoKey,
        fetch: recorder.fetch,
      });
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
