import { join } from 'node:path';
import { decodeSSEChunks, findSplitsThatChangeMessages, readFixture, splitEvery } from '@signalbox/sse/testing';
import { decodeMessages } from '../testing/decode-test-helpers';

// Wire-shaped synthetic streams; provenance in __fixtures__/README.md.
const FIXTURES = join(__dirname, '../__fixtures__');
const STREAM_FIXTURES = [
  'text-thoughts.1.stream.sse',
  'signed-last-text.1.stream.sse',
  'parallel-calls.1.stream.sse',
  'cut-before-finish.1.stream.sse',
  'error-mid-stream.1.stream.sse',
  'blocked-prompt.1.stream.sse',
];

function decodeFixture(name: string, split: (bytes: Uint8Array) => Uint8Array[] = bytes => [bytes]) {
  return decodeMessages(decodeSSEChunks(split(readFixture(FIXTURES, name))));
}

describe('createGeminiStreamDecoder on fixtures', () => {
  it.each(STREAM_FIXTURES)('%s decodes to the same events wherever the chunks split', name => {
    const bytes = readFixture(FIXTURES, name);
    const whole = decodeFixture(name);
    expect(findSplitsThatChangeMessages(bytes)).toEqual([]);
    expect(decodeFixture(name, value => splitEvery(value, 1))).toEqual(whole);
    expect(decodeFixture(name, value => splitEvery(value, 7))).toEqual(whole);
  });

  it('reads thoughts, a signature on the first text part, text deltas and the last chunk’s usage', () => {
    expect(decodeFixture('text-thoughts.1.stream.sse')).toEqual([
      { type: 'response-start', id: 'gH8oabCxNqKd1MkPkL6JwQ4', model: 'gemini-3-pro-preview' },
      { type: 'reasoning-start', id: 'b0' },
      { type: 'reasoning-delta', id: 'b0', delta: '**Weighing the question**\nThe user asks about Oslo' },
      { type: 'reasoning-end', id: 'b0' },
      { type: 'reasoning-start', id: 'b1' },
      { type: 'reasoning-end', id: 'b1', signature: 'CiQBcsjafQ3+TgYR/dYSB9u0bGbUQPZwVGnd0h5oXz5RbzU9+rsKXQFyyNp9' },
      { type: 'text-start', id: 'b2' },
      { type: 'text-delta', id: 'b2', delta: 'Grüße aus Oslo' },
      { type: 'text-delta', id: 'b2', delta: ' 👋!' },
      { type: 'text-end', id: 'b2' },
      {
        type: 'response-end',
        finishReason: { unified: 'stop', raw: 'STOP' },
        usage: { inputTokens: 1210, outputTokens: 47, cacheReadTokens: 1024, cacheWriteTokens: 0, cacheWrite1hTokens: undefined, reasoningTokens: 41 },
      },
    ]);
  });

  it('keeps text whose last chunk carries the signature in one block, the signed empty reasoning after it', () => {
    expect(decodeFixture('signed-last-text.1.stream.sse')).toEqual([
      { type: 'response-start', id: 'q2ZoacSignedLastText', model: 'gemini-3-flash-preview' },
      { type: 'text-start', id: 'b0' },
      { type: 'text-delta', id: 'b0', delta: 'Snow chains' },
      { type: 'text-delta', id: 'b0', delta: ' are in the boot.' },
      { type: 'text-end', id: 'b0' },
      { type: 'reasoning-start', id: 'b1' },
      { type: 'reasoning-end', id: 'b1', signature: 'Ei0KKwHLvfDwSignedLastTextMadeUp8n2XFA4ru0RGg==' },
      { type: 'response-end', finishReason: { unified: 'stop', raw: 'STOP' }, usage: expect.objectContaining({ inputTokens: 96, reasoningTokens: 27 }) },
    ]);
  });

  it('reads each function call whole, the signature on the first just before it, and STOP as tool calls', () => {
    const events = decodeFixture('parallel-calls.1.stream.sse');
    expect(events.map(event => event.type)).toEqual([
      'response-start',
      'reasoning-start',
      'reasoning-end',
      'tool-call-start',
      'tool-call-end',
      'tool-call-start',
      'tool-call-end',
      'response-end',
    ]);
    expect(events[2]).toMatchObject({ signature: 'EpYCCpMCAcu98PB6mY2k8Tt4/6ZQ1aLzq2w==' });
    expect(events[3]).toMatchObject({ toolName: 'get_weather', callId: 'call_a1ooaa-7C4qQ1MkP6cCA2Ak_0' });
    expect(events[5]).toMatchObject({ toolName: 'get_time', callId: 'call_a1ooaa-7C4qQ1MkP6cCA2Ak_1' });
    expect(events[4]).toMatchObject({ arguments: '{"city":"Oslo"}' });
    expect(events[6]).toMatchObject({ arguments: '{"city":"Oslo","utc":true}' });
    expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'STOP' }, usage: { outputTokens: 113, reasoningTokens: 82 } });
  });

  it('reports a body that ends before a finishReason as UPSTREAM_FAILED, never as complete', () => {
    expect(decodeFixture('cut-before-finish.1.stream.sse').at(-1)).toEqual({
      type: 'error',
      code: 'UPSTREAM_FAILED',
      message: 'The upstream stream ended before its terminal event.',
      upstream: undefined,
    });
  });

  it("reads an error chunk in Google's words: UNAVAILABLE is an overload, and nothing follows it", () => {
    const events = decodeFixture('error-mid-stream.1.stream.sse');
    expect(events.filter(event => event.type === 'response-end')).toEqual([]);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      code: 'UPSTREAM_OVERLOADED',
      upstream: { type: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' },
    });
  });

  it('ends a prompt blocked before any candidate as stopped by a filter', () => {
    expect(decodeFixture('blocked-prompt.1.stream.sse').at(-1)).toMatchObject({
      type: 'response-end',
      finishReason: { unified: 'content-filter', raw: 'PROHIBITED_CONTENT' },
    });
  });

  it('refuses a chunk that is not JSON with UPSTREAM_FAILED', () => {
    expect(decodeMessages([{ data: '{"candidates": [' }])).toEqual([
      { type: 'error', code: 'UPSTREAM_FAILED', message: 'The upstream sent a stream chunk that is not JSON.', upstream: undefined },
    ]);
  });
});
