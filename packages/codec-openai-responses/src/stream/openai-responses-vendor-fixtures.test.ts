import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SSEMessage, StreamEvent } from '@switchyard/core';
import { decodeOpenAIError } from '@switchyard/codec-openai-shared';
import { decodeSSEChunks, readFixture, splitAt, splitEvery } from '@switchyard/sse/testing';
import { decodeOpenAIResponsesResponse } from '../response/decode-openai-responses-response';
import { createOpenAIResponsesStreamDecoder } from './decode-openai-responses-stream';

// Vendor-shaped recordings of the Responses API (real payload bytes, scrubbed ids and encrypted
// content); where each one comes from is listed in __fixtures__/README.md.
const FIXTURES = join(__dirname, '../__fixtures__');
const STREAMS = [
  'vendor-phase-text.1.stream.sse',
  'vendor-tool-call.1.stream.sse',
  'vendor-reasoning-tool-call.1.stream.sse',
  'vendor-quota-error.1.stream.sse',
] as const;

function decodeMessages(messages: readonly SSEMessage[]): unknown[] {
  const decoder = createOpenAIResponsesStreamDecoder();
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

const typeOf = (event: unknown) => (event as StreamEvent).type;

describe('createOpenAIResponsesStreamDecoder on vendor recordings', () => {
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
      for (const size of [1, 7, 64]) expect(decodeChunks(splitEvery(bytes, size))).toEqual(whole);
    });

    it('ends with exactly one terminal event, and it is the last one', () => {
      const terminal = whole.filter(event => ['response-end', 'error'].includes(typeOf(event)));
      expect(terminal).toHaveLength(1);
      expect(whole.at(-1)).toBe(terminal[0]);
    });
  });

  it('reads both message items of a commentary-then-answer stream, and usage without total_tokens', () => {
    const events = decodeChunks([readFixture(FIXTURES, 'vendor-phase-text.1.stream.sse')]);
    const text = events.map(event => (typeOf(event) === 'text-delta' ? (event as { delta: string }).delta : ''));
    expect(text.join('')).toBe("I'm going to search for thatThe capital of France is Paris.");
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finishReason: { unified: 'stop', raw: 'completed' },
      usage: { inputTokens: 50, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: undefined, reasoningTokens: 20 },
    });
  });

  it('joins argument deltas that carry obfuscation padding, and reports the call as a tool-calls finish', () => {
    const events = decodeChunks([readFixture(FIXTURES, 'vendor-tool-call.1.stream.sse')]);
    expect(events.filter(event => typeOf(event) === 'tool-call-end')).toEqual([
      { type: 'tool-call-end', id: 'fc_scrubbedvendortoolcall01', arguments: '{"city":"Beijing"}' },
    ]);
    expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'completed' } });
  });

  it('ends the reasoning block with the encrypted content of the finished item', () => {
    const events = decodeChunks([readFixture(FIXTURES, 'vendor-reasoning-tool-call.1.stream.sse')]);
    const end = events.find(event => typeOf(event) === 'reasoning-end') as { encryptedContent?: string };
    expect(end.encryptedContent).toMatch(/^gAAAAAB/);
  });

  it('surfaces the nested error event once, and ignores the response.failed that follows it', () => {
    const events = decodeChunks([readFixture(FIXTURES, 'vendor-quota-error.1.stream.sse')]);
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      upstream: { type: 'insufficient_quota', code: 'insufficient_quota' },
    });
  });
});

describe('OpenAI Responses vendor JSON bodies', () => {
  it('decodes a completed function-call response taken from a recorded stream', () => {
    expect(decodeOpenAIResponsesResponse(readJSON('vendor-tool-call.1.response.json'))).toMatchSnapshot();
  });

  it('reads message, type and param from a recorded 400 body whose code is null', () => {
    expect(decodeOpenAIError(readJSON('vendor-unsupported-parameter.1.error.json'))).toEqual({
      message: "Unsupported parameter: 'temperature' is not supported with this model.",
      type: 'invalid_request_error',
      param: 'temperature',
    });
  });
});
