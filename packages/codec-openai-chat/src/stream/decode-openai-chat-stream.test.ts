import { join } from 'node:path';
import { decodeSSEChunks, findSplitsThatChangeMessages, readFixture, splitEvery } from '@signalbox/sse/testing';
import { decodeMessages } from '../testing/decode-test-helpers';

// All fixtures are wire-shaped synthetic streams; provenance in __fixtures__/README.md.
const FIXTURES = join(__dirname, '../__fixtures__');
const STREAM_FIXTURES = [
  'text-usage.1.stream.sse',
  'tool-calls-parallel.1.stream.sse',
  'reasoning-compat.1.stream.sse',
  'error-mid-stream.1.stream.sse',
  'cut-before-done.1.stream.sse',
  'tool-call-forced-stop.1.stream.sse',
  'finish-without-done.1.stream.sse',
  'refusal.1.stream.sse',
];


function decodeFixture(name: string, split: (bytes: Uint8Array) => Uint8Array[] = bytes => [bytes]) {
  return decodeMessages(decodeSSEChunks(split(readFixture(FIXTURES, name))));
}

function textOf(
  events: ReturnType<typeof decodeMessages>,
  type: 'text-delta' | 'reasoning-delta' | 'refusal-delta',
) {
  return events.map(event => (event.type === type ? event.delta : '')).join('');
}

describe('createOpenAIChatStreamDecoder on fixtures', () => {
  it.each(STREAM_FIXTURES)('%s decodes to the same events wherever the chunks split', name => {
    const bytes = readFixture(FIXTURES, name);
    const whole = decodeFixture(name);
    expect(findSplitsThatChangeMessages(bytes)).toEqual([]);
    expect(decodeFixture(name, value => splitEvery(value, 1))).toEqual(whole);
    expect(decodeFixture(name, value => splitEvery(value, 7))).toEqual(whole);
    expect(whole).toMatchSnapshot();
  });

  it('reads a text answer, including the usage-only chunk after finish_reason', () => {
    const events = decodeFixture('text-usage.1.stream.sse');
    expect(events[0]).toEqual({
      type: 'response-start',
      id: 'chatcmpl-Fx7aQ2mZrB0cT9yLw3hVdK1s',
      model: 'gpt-6-2026-10-01',
    });
    expect(textOf(events, 'text-delta')).toBe('Grüße aus Oslo 👋!');
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: 1312,
        outputTokens: 9,
        cacheReadTokens: 1152,
        cacheWriteTokens: undefined,
        reasoningTokens: 0,
      },
    });
  });

  it('keeps parallel tool calls apart, one block per Chat index', () => {
    const events = decodeFixture('tool-calls-parallel.1.stream.sse');
    const starts = events.filter(event => event.type === 'tool-call-start');
    expect(starts).toEqual([
      {
        type: 'tool-call-start',
        id: 'tool-0',
        callId: 'call_h3JkR8sT2vWx9yZa1bCd4eFg',
        toolName: 'get_weather',
      },
      {
        type: 'tool-call-start',
        id: 'tool-1',
        callId: 'call_Q7wErT5yUi3oPa8sDf2gHj6k',
        toolName: 'get_weather',
      },
    ]);
    const argumentsOf = (id: string) =>
      events
        .map(event => (event.type === 'tool-call-delta' && event.id === id ? event.argumentsDelta : ''))
        .join('');
    expect(argumentsOf('tool-0')).toBe('{"city": "Oslo"}');
    expect(argumentsOf('tool-1')).toBe('{"city": "Bergen"}');
    expect(events.filter(event => event.type === 'tool-call-end')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({
      type: 'response-end',
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    });
  });

  it('reads reasoning_content and ignores `tool_calls: []` in text chunks (vLLM/Ollama)', () => {
    const events = decodeFixture('reasoning-compat.1.stream.sse');
    expect(events.map(event => event.type)).toEqual([
      'response-start',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-delta',
      'reasoning-end',
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
      'response-end',
    ]);
    expect(textOf(events, 'reasoning-delta')).toBe('The user asks 2+2. That is 4.');
    expect(textOf(events, 'text-delta')).toBe('It is 4.');
    expect(events.at(-1)).toMatchObject({
      usage: { inputTokens: 17, outputTokens: 21, cacheReadTokens: undefined },
    });
  });

  it('turns an `{"error": …}` chunk into an IR error and nothing after it', () => {
    const events = decodeFixture('error-mid-stream.1.stream.sse');
    expect(events.at(-1)).toEqual({
      type: 'error',
      code: 'UPSTREAM_FAILED',
      message: 'Upstream error: The server had an error while processing your request. Sorry about that!',
      upstream: {
        type: 'server_error',
        message: 'The server had an error while processing your request. Sorry about that!',
      },
    });
    expect(events.filter(event => event.type === 'error' || event.type === 'response-end')).toHaveLength(1);
  });

  it('reports a stream cut before [DONE] without finish_reason as an error, not a success', () => {
    const events = decodeFixture('cut-before-done.1.stream.sse');
    expect(events.some(event => event.type === 'response-end')).toBe(false);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      code: 'UPSTREAM_FAILED',
      message: 'The upstream stream ended before its terminal event.',
    });
  });

  it('reports tool-calls when tool calls came with finish_reason "stop" (forced tool_choice)', () => {
    const events = decodeFixture('tool-call-forced-stop.1.stream.sse');
    expect(events.at(-1)).toMatchObject({
      type: 'response-end',
      finishReason: { unified: 'tool-calls', raw: 'stop' },
    });
  });

  it('ends cleanly when finish_reason was seen but [DONE] never came', () => {
    const events = decodeFixture('finish-without-done.1.stream.sse');
    expect(events.at(-1)).toMatchObject({
      type: 'response-end',
      finishReason: { unified: 'length', raw: 'length' },
    });
  });

  it('streams refusals as refusal blocks', () => {
    const events = decodeFixture('refusal.1.stream.sse');
    expect(textOf(events, 'refusal-delta')).toBe("I'm sorry, I can't help with that.");
    expect(events.some(event => event.type === 'text-start')).toBe(false);
  });
});
