import { createOpenAI } from '@ai-sdk/openai';
import { DEFAULT_ROUTES } from './default-routes';
import { runMastraLoop } from './mastra-tool-loop';
import { createRecordingFetch } from './record-requests';
import { useOfflineGateway } from './use-offline-gateway';
import { expectWeatherLoop } from './vercel-ai-sdk-tool-loop';

/**
 * A Mastra agent on the AI SDK Responses model with its defaults: `store` is on, so the second step
 * refers to the first step's output items by `item_reference`, and the gateway must expand them.
 * Mastra reports a failed step without throwing, so the loop helper turns that into a failure.
 */
describe.each(DEFAULT_ROUTES)('Mastra agent on the Responses model with its default store on %s', route => {
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
      expectWeatherLoop(
        await runMastraLoop(openai.responses(route), mode),
        recorder.requests,
        '/v1/responses',
      );
      const second = recorder.requests[1]?.body as { input: Array<{ type?: string }> };
      expect(second.input.filter(item => item.type === 'item_reference').length).toBeGreaterThanOrEqual(1);
    },
  );
});
