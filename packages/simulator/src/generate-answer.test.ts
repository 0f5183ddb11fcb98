import { generateAnswer } from './generate-answer';
import type { SimulatedRequest } from './simulated-request';
import { WORD_LIST } from './word-list';

const settings = { answerTokens: 64, reasoningTokens: 16 };

function request(overrides: Partial<SimulatedRequest> = {}): SimulatedRequest {
  return {
    model: 'sim',
    stream: false,
    lastUserText: 'Tell me about rivers',
    inputCharacters: 20,
    promptBlocks: [{ label: 'user:text', text: 'Tell me about rivers' }],
    promptCacheKey: undefined,
    promptCacheTtlSeconds: 300,
    maxOutputTokens: undefined,
    stopSequences: [],
    tools: [],
    toolChoice: { type: 'auto' },
    parallelToolCalls: true,
    trailingToolResults: [],
    toolResultsSinceUserText: 0,
    reasoning: false,
    includeEncryptedReasoning: false,
    includeStreamUsage: false,
    body: {},
    ...overrides,
  };
}

const weatherTool = {
  name: 'get_weather',
  description: '',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer' }, metric: { type: 'boolean' }, unit: { enum: ['c', 'f'] } },
    required: ['city'],
  },
};
const timeTool = { name: 'get_time', description: '', parameters: { type: 'object', properties: { zone: { type: 'string' } } } };

describe('generateAnswer', () => {
  it('gives the same answer for the same prompt and a different one for another prompt', () => {
    const first = generateAnswer(request(), settings);
    expect(generateAnswer(request(), settings)).toEqual(first);
    expect(generateAnswer(request({ lastUserText: 'Tell me about mountains' }), settings).text).not.toBe(first.text);
  });

  it('writes 64 one-word tokens by default that echo the first words of the prompt', () => {
    const plan = generateAnswer(request(), settings);
    expect(plan.textTokens).toHaveLength(64);
    expect(plan.text.startsWith('Tell me about ')).toBe(true);
    expect(plan.textTokens.slice(1).every(token => /^ \S+$/.test(token))).toBe(true);
    expect(plan.textTokens.slice(3, -1).every(token => WORD_LIST.includes(token.trim()))).toBe(true);
    expect(plan.finish).toBe('stop');
    expect(plan.usage).toEqual({ inputTokens: 5, outputTokens: 64, reasoningTokens: 0 });
  });

  it('ignores scenario markers when choosing words', () => {
    const plain = generateAnswer(request(), settings);
    expect(generateAnswer(request({ lastUserText: '[[sim:slow=5]] Tell me about rivers' }), settings).text).toBe(plain.text);
  });

  it('counts at least one input token', () => {
    expect(generateAnswer(request({ inputCharacters: 0, lastUserText: '' }), settings).usage.inputTokens).toBe(1);
  });

  it('truncates at the output limit and reports length', () => {
    const plan = generateAnswer(request({ maxOutputTokens: 10 }), settings);
    expect(plan.textTokens).toHaveLength(10);
    expect(plan.finish).toBe('length');
    expect(plan.text).toBe(generateAnswer(request(), settings).textTokens.slice(0, 10).join(''));
    expect(generateAnswer(request({ maxOutputTokens: 64 }), settings).finish).toBe('stop');
  });

  it('stops before a word equal to a stop sequence', () => {
    const full = generateAnswer(request(), settings);
    const stopWord = (full.textTokens[7] as string).trim();
    const firstIndex = full.textTokens.findIndex(token => token.trim() === stopWord);
    const plan = generateAnswer(request({ stopSequences: ['never-generated', ` ${stopWord} `] }), settings);
    expect(plan.finish).toBe('stop-sequence');
    expect(plan.stopSequence).toBe(` ${stopWord} `);
    expect(plan.textTokens).toEqual(full.textTokens.slice(0, firstIndex));
  });

  it('calls the tool the prompt names, with arguments generated from its schema', () => {
    const plan = generateAnswer(request({ lastUserText: 'Use get_weather for Oslo', tools: [weatherTool, timeTool] }), settings);
    expect(plan.finish).toBe('tool-calls');
    expect(plan.text).toBe('I will call get_weather.');
    expect(plan.toolCalls).toHaveLength(1);
    const [call] = plan.toolCalls;
    expect(call?.input).toEqual({ city: 'Oslo', days: expect.any(Number), metric: true, unit: 'c' });
    expect(JSON.parse(call?.arguments ?? '')).toEqual(call?.input);
    expect(call?.argumentFragments.length).toBeGreaterThanOrEqual(2);
    expect(call?.argumentFragments.join('')).toBe(call?.arguments);
  });

  it('calls the forced tool, two tools when asked for parallel calls, and none when tools are off', () => {
    const forced = generateAnswer(request({ tools: [weatherTool, timeTool], toolChoice: { type: 'tool', name: 'get_time' } }), settings);
    expect(forced.toolCalls.map(call => call.name)).toEqual(['get_time']);
    const parallel = generateAnswer(request({ lastUserText: 'Check get_weather and get_time in parallel please', tools: [weatherTool, timeTool] }), settings);
    expect(parallel.toolCalls.map(call => call.name)).toEqual(['get_weather', 'get_time']);
    const serial = generateAnswer(
      request({ lastUserText: 'Check get_weather and get_time in parallel please', tools: [weatherTool, timeTool], parallelToolCalls: false }),
      settings,
    );
    expect(serial.toolCalls).toHaveLength(1);
    const none = generateAnswer(request({ tools: [weatherTool], toolChoice: { type: 'none' } }), settings);
    expect(none.toolCalls).toHaveLength(0);
    expect(none.finish).toBe('stop');
  });

  it('answers a tool result with text that quotes its first 40 characters', () => {
    const result = '{"temperature_c": 3, "conditions": "light snow over the fjord"}';
    const plan = generateAnswer(request({ tools: [weatherTool], trailingToolResults: [result], toolResultsSinceUserText: 1 }), settings);
    expect(plan.toolCalls).toHaveLength(0);
    expect(plan.text).toContain(result.slice(0, 40));
    expect(plan.text).not.toContain(result.slice(0, 41));
    expect(plan.finish).toBe('stop');
  });

  it('calls the tool again after each result until toolRounds results came back, then answers from the last', () => {
    const loop = { ...settings, toolRounds: 3 };
    const asked = { lastUserText: 'Use get_weather for Oslo', tools: [weatherTool] };
    const rounds = [1, 2, 3].map(results => generateAnswer(request({ ...asked, trailingToolResults: ['{"c": 3}'], toolResultsSinceUserText: results, inputCharacters: 20 * results }), loop));
    expect(rounds.map(plan => plan.toolCalls.map(call => call.name))).toEqual([['get_weather'], ['get_weather'], []]);
    expect(rounds[0]!.toolCalls[0]!.idSuffix).not.toBe(rounds[1]!.toolCalls[0]!.idSuffix);
    expect(rounds[2]!.text).toContain('{"c": 3}');
  });

  it("answers a multi-line tool result with its first 40 characters and its last line, where a shell's output sits", () => {
    const result = 'Chunk ID: 4c539c\nWall time: 0.0000 seconds\nProcess exited with code 0\nOutput:\nthe fjord notes 42\n';
    const plan = generateAnswer(request({ tools: [weatherTool], trailingToolResults: [result], toolResultsSinceUserText: 1 }), settings);
    expect(plan.text.startsWith(`Tool result: ${result.slice(0, 40)} … the fjord notes 42 `)).toBe(true);
    expect(plan.finish).toBe('stop');
  });

  it('plans reasoning first, counts it in the output and signs it deterministically', () => {
    const plan = generateAnswer(request({ reasoning: true }), settings);
    expect(plan.reasoning?.tokens).toHaveLength(16);
    expect(plan.reasoning?.complete).toBe(true);
    expect(plan.reasoning?.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(plan.reasoning?.encryptedContent).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(generateAnswer(request({ reasoning: true }), settings).reasoning).toEqual(plan.reasoning);
    expect(plan.usage).toEqual({ inputTokens: 5, outputTokens: 80, reasoningTokens: 16 });
  });

  it('lets the limit cut the reasoning itself', () => {
    const plan = generateAnswer(request({ reasoning: true, maxOutputTokens: 5 }), settings);
    expect(plan.reasoning?.tokens).toHaveLength(5);
    expect(plan.reasoning?.complete).toBe(false);
    expect(plan.textTokens).toHaveLength(0);
    expect(plan.finish).toBe('length');
  });
});
