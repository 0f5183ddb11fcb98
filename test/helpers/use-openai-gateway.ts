import OpenAI from 'openai';
import { startTestGateway, type TestGateway } from './start-test-gateway';

/** The `openai` SDK pointed at a gateway's `/v1`, without retries and with a bounded timeout. */
export function openAIClientFor(url: string, apiKey: string): OpenAI {
  return new OpenAI({ baseURL: `${url}/v1`, apiKey, maxRetries: 0, timeout: 15_000 });
}

/**
 * Starts the example server for the enclosing `describe`, with an `openai` client holding its demo
 * key, and closes it afterwards. Read `.server` and `.client` inside tests.
 */
export function useOpenAIGateway(): { readonly server: TestGateway; readonly client: OpenAI } {
  const context = {} as { server: TestGateway; client: OpenAI };
  beforeAll(async () => {
    context.server = await startTestGateway();
    context.client = openAIClientFor(context.server.url, context.server.demoKey);
  });
  afterAll(() => context.server.close(1_000));
  return context;
}
