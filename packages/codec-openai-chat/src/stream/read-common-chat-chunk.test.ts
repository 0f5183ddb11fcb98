import { openAIChatChunkSchema } from '../openai-chat-api';
import { readCommonChatChunk } from './read-common-chat-chunk';

const choice = (delta: unknown, extra: object = {}) => ({ index: 0, delta, finish_reason: null, ...extra });
const chunk = (choices: unknown, extra: object = {}) => ({ id: 'chatcmpl-1', model: 'm', choices, ...extra });

describe('readCommonChatChunk', () => {
  it.each([
    ['a text delta', chunk([choice({ role: 'assistant', content: 'Hi' })])],
    ['reasoning under either name', chunk([choice({ reasoning_content: 'a', reasoning: 'b' })])],
    ['a refusal', chunk([choice({ refusal: 'No.' })])],
    ['a finish reason and no delta', chunk([{ index: 0, finish_reason: 'stop' }])],
    ['nulls where the schema allows them', chunk([choice(null, { index: null, finish_reason: null })], { id: null, model: null, usage: null })],
    ['no choices at all', { id: 'chatcmpl-1' }],
    ['fields the schema does not know', chunk([choice({ content: 'x', audio: { id: 'a' } })], { system_fingerprint: 'fp', obfuscation: 'zz' })],
  ])('takes %s as it is, a chunk the schema takes too', (_name, value) => {
    expect(readCommonChatChunk(value)).toBe(value);
    expect(openAIChatChunkSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    ['the usage-only last chunk', chunk([], { usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } })],
    ['usage with its details', chunk([], { usage: { prompt_tokens: 9, prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 }, completion_tokens_details: null } })],
    ['usage beside a finish reason', chunk([choice({}, { finish_reason: 'stop' })], { usage: { prompt_cache_hit_tokens: 2 } })],
  ])('takes %s with its usage as the schema reads it', (_name, value) => {
    const read = readCommonChatChunk(value);
    expect(read).toBeDefined();
    expect(read?.usage).toEqual(openAIChatChunkSchema.parse(value).usage);
    expect(read?.choices).toBe(value.choices);
  });

  it.each([
    ['tool calls', chunk([choice({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '' } }] })])],
  ])('leaves a chunk with %s to the schema', (_name, value) => {
    expect(readCommonChatChunk(value)).toBeUndefined();
    expect(openAIChatChunkSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    ['a number as content', chunk([choice({ content: 5 })])],
    ['an object as reasoning', chunk([choice({ reasoning_content: {} })])],
    ['a number as refusal', chunk([choice({ refusal: 1 })])],
    ['a string as the index', chunk([choice({ content: 'x' }, { index: '0' })])],
    ['a number as the finish reason', chunk([choice({ content: 'x' }, { finish_reason: 1 })])],
    ['an array as the delta', chunk([choice(['x'])])],
    ['a string as a choice', chunk(['x'])],
    ['an object as the choices', chunk({ 0: choice({ content: 'x' }) })],
    ['a number as the id', chunk([choice({ content: 'x' })], { id: 7 })],
    ['a number as the model', chunk([choice({ content: 'x' })], { model: 7 })],
    ['an array as the chunk', [choice({ content: 'x' })]],
    ['a string as the chunk', 'x'],
    ['a string as a usage count', chunk([], { usage: { prompt_tokens: '1' } })],
    ['an array as the usage', chunk([], { usage: [1] })],
    ['a number as the usage details', chunk([], { usage: { completion_tokens_details: 3 } })],
  ])('refuses a chunk with %s, which the schema refuses too', (_name, value) => {
    expect(readCommonChatChunk(value)).toBeUndefined();
    expect(openAIChatChunkSchema.safeParse(value).success).toBe(false);
  });
});
