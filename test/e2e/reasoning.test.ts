import AnthropicV0 from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

describe('reasoning across protocols', () => {
  let server: TestGateway;
  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  it('a Messages client gets signed thinking first, and can replay it unchanged (Messages upstream)', async () => {
    const anthropic = new AnthropicV0({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0 });
    const ask = { model: 'sim-via-messages', max_tokens: 2048, thinking: { type: 'enabled' as const, budget_tokens: 1024 } };
    const first = await anthropic.messages.stream({ ...ask, messages: [{ role: 'user', content: 'Think about signal boxes' }] }).finalMessage();
    expect(first.content[0]).toMatchObject({ type: 'thinking', signature: expect.stringMatching(/.+/) });
    expect(first.content.some(block => block.type === 'text')).toBe(true);
    const second = await anthropic.messages.create({
      ...ask,
      messages: [
        { role: 'user', content: 'Think about signal boxes' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'And now about harbours' },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
  });

  it('a Responses client gets Anthropic thinking as a reasoning item it can replay (Messages upstream)', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0 });
    const first = await openai.responses.stream({ model: 'sim-via-messages', input: 'Think about signal boxes', reasoning: { effort: 'low' } }).finalResponse();
    const reasoning = first.output.find(item => item.type === 'reasoning');
    expect(reasoning).toMatchObject({ type: 'reasoning', encrypted_content: expect.stringMatching(/^swy1\./) });
    expect(first.output_text.length).toBeGreaterThan(0);
    expect(first.output_text).not.toContain(reasoning?.type === 'reasoning' ? reasoning.summary[0]?.text ?? '@' : '@');
    const second = await openai.responses.create({
      model: 'sim-via-messages',
      reasoning: { effort: 'low' },
      input: [
        { role: 'user', content: 'Think about signal boxes' },
        ...first.output.map(item => item as OpenAI.Responses.ResponseInputItem),
        { role: 'user', content: 'And now about harbours' },
      ],
    });
    expect(second.status).toBe('completed');
  });

  it('a Chat client never sees reasoning as visible text', async () => {
    const openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0 });
    const anthropic = new AnthropicV0({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0 });
    const prompt = 'Think about signal boxes';
    const reference = await anthropic.messages.create({
      model: 'sim-via-messages',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: prompt }],
    });
    const thinking = reference.content.find(block => block.type === 'thinking');
    const text = reference.content.find(block => block.type === 'text');
    const reasoned = await openai.chat.completions.create({ model: 'sim-via-messages', messages: [{ role: 'user', content: prompt }], reasoning_effort: 'low' });
    const content = reasoned.choices[0]?.message.content ?? '';
    expect(thinking?.type === 'thinking' && thinking.thinking.length).toBeGreaterThan(20);
    expect(content).not.toContain(thinking?.type === 'thinking' ? thinking.thinking : '@');
    expect(content).toBe(text?.type === 'text' ? text.text : '');
  });
});
