import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SSEMessage, StreamEvent } from '@switchyard/core';
import { decodeSSEChunks, readFixture, splitAt, splitEvery } from '@switchyard/sse/testing';
import { decodeAnthropicError } from '../error/anthropic-error-envelope';
import { decodeAnthropicResponse } from '../response/decode-anthropic-response';
import { createAnthropicStreamDecoder } from './decode-anthropic-stream';

// Vendor-shaped recordings of the Messages API (real payload bytes, scrubbed ids and signatures);
// where each one comes from is listed in __fixtures__/README.md.
const FIXTURES = join(__dirname, '../__fixtures__');
const STREAMS = [
  'vendor-text.1.stream.sse',
  'vendor-tool-no-arguments.1.stream.sse',
  'vendor-thinking.1.stream.sse',
] as const;

function decodeMessages(messages: readonly SSEMessage[]): unknown[] {
  const decoder = createAnthropicStreamDecoder();
  const events: StreamEvent[] = [...messages.flatMap(message => decoder.push(message)), ...decoder.end()];
  return events.map(event =>
    event.type === 'error'
      ? { type: 'error', code: event.error.code, message: event.error.message, upstream: event.error.upstream }
      : event,
  );
}

function decodeChunks(chunks: Uint8Array[]): unknown[] {
  return decodeMessages(decodeSSEChunks(chunks));
}

function readJSON(name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
}

describe('createAnthropicStreamDecoder on vendor recordings', () => {
  describe.each(STREAMS)('%s', name => {
    const bytes = readFixture(FIXTURES, name);
    const whole = decodeChunks([bytes]);

    it('maps the stream to IR events', () => {
      expect(whole).toMatchSnapshot();
    });

    it('gives the same events wherever the chunk boundaries fall', () => {
      const splitsThatDiffer: number[] = [];
      const expected = JSON.stringify(whole);
      for (let offset = 1; offset < bytes.length; offset++) {
        if (JSON.stringify(decodeChunks(splitAt(bytes, [offset]))) !== expected) splitsThatDiffer.push(offset);
      }
      expect(splitsThatDiffer).toEqual([]);
      for (const size of [1, 3, 64]) expect(decodeChunks(splitEvery(bytes, size))).toEqual(whole);
    });

    it('ends with exactly one terminal event, and it is the last one', () => {
      const terminal = whole.filter(event => ['response-end', 'error'].includes((event as StreamEvent).type));
      expect(terminal).toHaveLength(1);
      expect(whole.at(-1)).toBe(terminal[0]);
    });
  });

  it('reads a text answer whose message_delta repeats the input counts', () => {
    const events = decodeChunks([readFixture(FIXTURES, 'vendor-text.1.stream.sse')]);
    const text = events.map(event => ((event as StreamEvent).type === 'text-delta' ? (event as { delta: string }).delta : ''));
    expect(text.join('')).toBe("Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?");
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: { inputTokens: 12, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: undefined },
    });
  });

  it('gives a tool called without arguments an empty JSON object and reports the tool_use stop', () => {
    const events = decodeChunks([readFixture(FIXTURES, 'vendor-tool-no-arguments.1.stream.sse')]);
    expect(events.filter(event => (event as StreamEvent).type === 'tool-call-end')).toEqual([
      expect.objectContaining({ type: 'tool-call-end' }),
    ]);
    expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'tool_use' } });
  });

  it('keeps the thinking signature and the thinking token count of a padded stream', () => {
    const events = decodeChunks([readFixture(FIXTURES, 'vendor-thinking.1.stream.sse')]);
    expect(JSON.stringify(events)).toContain('c2NydWJiZWQ6');
    expect(events.at(-1)).toMatchObject({
      type: 'response-end',
      usage: { inputTokens: 47, outputTokens: 373, reasoningTokens: 62 },
    });
  });
});

describe('Anthropic vendor JSON bodies', () => {
  it('decodes a recorded non-streaming text answer', () => {
    expect(decodeAnthropicResponse(readJSON('vendor-text.1.response.json'))).toMatchSnapshot();
  });

  it('reads type, message and request id from a recorded 400 body', () => {
    expect(decodeAnthropicError(readJSON('vendor-invalid-request.1.error.json'))).toEqual({
      type: 'invalid_request_error',
      message: expect.stringContaining('unexpected `tool_use_id` found in `tool_result` blocks') as string,
      requestId: 'req_01ScrubbedVendorError01',
    });
  });
});
