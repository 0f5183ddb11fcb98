import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import { createAnthropic as createAnthropicV3 } from 'ai-sdk-anthropic-v3';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

const PROMPT = 'Describe how a railway signalbox sorts freight cars';
const ROUTES = ['signalbox-sim', 'sim-via-responses', 'sim-via-messages', 'sim-via-chat'];

describe('Vercel AI SDK against the example server', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  const openai = () => createOpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey });
  const anthropic = () => createAnthropic({ baseURL: `${server.url}/v1`, apiKey: server.demoKey });
  const anthropicV3 = () => createAnthropicV3({ baseURL: `${server.url}/v1`, apiKey: server.demoKey });

  describe.each(ROUTES)('on %s', model => {
    it('@ai-sdk/openai responses model: generateText and streamText', async () => {
      const generated = await generateText({ model: openai().responses(model), prompt: PROMPT, maxRetries: 0 });
      expect(generated.finishReason).toBe('stop');
      expect(generated.text.trim().split(/\s+/).length).toBeGreaterThanOrEqual(50);
      expect(generated.usage.outputTokens).toBeGreaterThanOrEqual(50);

      const streamed = streamText({ model: openai().responses(model), prompt: PROMPT, maxRetries: 0 });
      let text = '';
      for await (const delta of streamed.textStream) text += delta;
      expect(text).toBe(generated.text);
      expect(await streamed.finishReason).toBe('stop');
    });

    // The 3.x line (AI SDK 6, still widely installed) checks answers more strictly: a `null` where the API
    // writes nothing (`citations: null` on a text block) fails its generateText.
    it.each([
      ['@ai-sdk/anthropic', () => anthropic()(model)],
      ['@ai-sdk/anthropic 3.x', () => anthropicV3()(model)],
    ])('%s: generateText and streamText', async (_provider, languageModel) => {
      const generated = await generateText({ model: languageModel(), prompt: PROMPT, maxOutputTokens: 512, maxRetries: 0 });
      expect(generated.finishReason).toBe('stop');
      expect(generated.text.trim().split(/\s+/).length).toBeGreaterThanOrEqual(50);

      const streamed = streamText({ model: languageModel(), prompt: PROMPT, maxOutputTokens: 512, maxRetries: 0 });
      let text = '';
      for await (const delta of streamed.textStream) text += delta;
      expect(text).toBe(generated.text);
      expect((await streamed.usage).outputTokens).toBeGreaterThanOrEqual(50);
      expect(await streamed.finishReason).toBe('stop');
    });
  });
});
