import AnthropicV0 from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { authHeaders, postForSSE } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { validateChatStream, validateMessagesStream, validateResponsesStream } from '../stream-validators';

/** Every client protocol against every upstream protocol: the 3 × 3 matrix, for tool calls. */
const UPSTREAM_ROUTES = ['sim-via-responses', 'sim-via-messages', 'sim-via-chat'];
const weather = { name: 'get_weather', description: 'Current weather for a city', schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
const time = { name: 'get_time', description: 'Local time in a city', schema: { type: 'object', properties: { city: { type: 'string' }, utc: { type: 'boolean' } }, required: ['city'] } };
const TOOL_RESULT = 'Sunny and 21 degrees in Oslo today';

describe.each(UPSTREAM_ROUTES)('tool calls through %s', model => {
  let server: TestGateway;
  let openai: OpenAI;
  let anthropic: AnthropicV0;
  beforeAll(async () => {
    server = await startTestGateway();
    openai = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: server.demoKey, maxRetries: 0 });
    anthropic = new AnthropicV0({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0 });
  });
  afterAll(() => server.close(1_000));

  const responsesTools = (tools = [weather]) =>
    tools.map(tool => ({ type: 'function' as const, name: tool.name, description: tool.description, parameters: tool.schema, strict: false }));
  const chatTools = (tools = [weather]) =>
    tools.map(tool => ({ type: 'function' as const, function: { name: tool.name, description: tool.description, parameters: tool.schema } }));
  const messagesTools = (tools = [weather]) =>
    tools.map(tool => ({ name: tool.name, description: tool.description, input_schema: tool.schema as { type: 'object' } }));

  describe('Responses client', () => {
    it('gets a function_call item (JSON and stream) and answers from the tool result', async () => {
      const response = await openai.responses.create({ model, input: 'What is the weather in Oslo?', tools: responsesTools() });
      const call = response.output.find(item => item.type === 'function_call');
      expect(call).toMatchObject({ type: 'function_call', name: 'get_weather', status: 'completed' });
      expect(JSON.parse(call!.type === 'function_call' ? call!.arguments : '')).toEqual({ city: expect.any(String) });

      const final = await openai.responses.stream({ model, input: 'What is the weather in Oslo?', tools: responsesTools() }).finalResponse();
      const streamed = final.output.find(item => item.type === 'function_call');
      expect(streamed && streamed.type === 'function_call' && JSON.parse(streamed.arguments)).toEqual(JSON.parse(call!.type === 'function_call' ? call!.arguments : ''));
      const raw = await postForSSE(`${server.url}/v1/responses`, authHeaders.responses(server.demoKey), { model, input: 'What is the weather in Oslo?', tools: responsesTools(), stream: true });
      expect(validateResponsesStream(raw.messages).violations).toEqual([]);

      const followUp = await openai.responses.create({
        model,
        tools: responsesTools(),
        input: [
          { role: 'user', content: 'What is the weather in Oslo?' },
          { type: 'function_call', call_id: call!.type === 'function_call' ? call!.call_id : '', name: 'get_weather', arguments: '{"city":"Oslo"}' },
          { type: 'function_call_output', call_id: call!.type === 'function_call' ? call!.call_id : '', output: TOOL_RESULT },
        ],
      });
      expect(followUp.status).toBe('completed');
      expect(followUp.output_text).toContain('Sunny and 21 degrees');
    });

    it('gets two parallel calls with distinct ids', async () => {
      const response = await openai.responses.create({ model, input: 'In parallel: weather and time in Oslo', tools: responsesTools([weather, time]) });
      const calls = response.output.filter(item => item.type === 'function_call');
      expect(calls.map(item => item.type === 'function_call' && item.name).sort()).toEqual(['get_time', 'get_weather']);
      expect(new Set(calls.map(item => item.type === 'function_call' && item.call_id)).size).toBe(2);
    });
  });

  describe('Chat client', () => {
    it('gets tool_calls with finish_reason tool_calls (JSON and stream) and answers from the tool result', async () => {
      const completion = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: 'What is the weather in Oslo?' }], tools: chatTools() });
      const choice = completion.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      const call = choice.message.tool_calls![0]!;
      expect(call.type === 'function' && call.function.name).toBe('get_weather');
      expect(JSON.parse(call.type === 'function' ? call.function.arguments : '')).toEqual({ city: expect.any(String) });

      const final = await openai.chat.completions.stream({ model, messages: [{ role: 'user', content: 'What is the weather in Oslo?' }], tools: chatTools() }).finalChatCompletion();
      expect(final.choices[0]?.finish_reason).toBe('tool_calls');
      expect(final.choices[0]?.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
      const raw = await postForSSE(`${server.url}/v1/chat/completions`, authHeaders.chat(server.demoKey), {
        model,
        messages: [{ role: 'user', content: 'In parallel: weather and time in Oslo' }],
        tools: chatTools([weather, time]),
        stream: true,
      });
      const verdict = validateChatStream(raw.messages, { expectUsage: false });
      expect(verdict.violations).toEqual([]);
      expect(verdict.outcome).toBe('completed');

      const followUp = await openai.chat.completions.create({
        model,
        tools: chatTools(),
        messages: [
          { role: 'user', content: 'What is the weather in Oslo?' },
          { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
          { role: 'tool', tool_call_id: call.id, content: TOOL_RESULT },
        ],
      });
      expect(followUp.choices[0]?.message.content).toContain('Sunny and 21 degrees');
    });
  });

  describe('Messages client', () => {
    it('gets tool_use blocks with stop_reason tool_use (JSON and stream) and answers from the tool result', async () => {
      const message = await anthropic.messages.create({ model, max_tokens: 512, messages: [{ role: 'user', content: 'What is the weather in Oslo?' }], tools: messagesTools() });
      expect(message.stop_reason).toBe('tool_use');
      const use = message.content.find(block => block.type === 'tool_use');
      expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: expect.any(String) } });
      expect(use && use.type === 'tool_use' && use.id).toMatch(/^[a-zA-Z0-9_-]+$/);

      const final = await anthropic.messages
        .stream({ model, max_tokens: 512, messages: [{ role: 'user', content: 'In parallel: weather and time in Oslo' }], tools: messagesTools([weather, time]) })
        .finalMessage();
      expect(final.stop_reason).toBe('tool_use');
      expect(final.content.filter(block => block.type === 'tool_use').map(block => block.type === 'tool_use' && block.name).sort()).toEqual(['get_time', 'get_weather']);
      const raw = await postForSSE(`${server.url}/v1/messages`, authHeaders.messages(server.demoKey), {
        model,
        max_tokens: 512,
        stream: true,
        messages: [{ role: 'user', content: 'In parallel: weather and time in Oslo' }],
        tools: messagesTools([weather, time]),
      });
      expect(validateMessagesStream(raw.messages).violations).toEqual([]);

      const followUp = await anthropic.messages.create({
        model,
        max_tokens: 512,
        tools: messagesTools(),
        messages: [
          { role: 'user', content: 'What is the weather in Oslo?' },
          { role: 'assistant', content: message.content },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: use!.type === 'tool_use' ? use!.id : '', content: TOOL_RESULT }] },
        ],
      });
      expect(followUp.stop_reason).toBe('end_turn');
      expect(followUp.content.map(block => (block.type === 'text' ? block.text : '')).join('')).toContain('Sunny and 21 degrees');
    });
  });
});
