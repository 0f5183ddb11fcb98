import { join } from 'node:path';
import { decodeOpenAIError } from '@signalbox/codec-openai-shared';
import {
  decodeStreamChunks,
  describeVendorStreamRecordings,
  readFixture,
  readJSONFixture,
} from '@signalbox/sse/testing';
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

const decodeRecording = (name: string) =>
  decodeStreamChunks(createOpenAIResponsesStreamDecoder(), [readFixture(FIXTURES, name)]);
const readJSON = (name: string) => readJSONFixture(FIXTURES, name);

describe('createOpenAIResponsesStreamDecoder on vendor recordings', () => {
  describeVendorStreamRecordings({
    directory: FIXTURES,
    names: STREAMS,
    createDecoder: createOpenAIResponsesStreamDecoder,
    chunkSizes: [1, 7, 64],
  });

  it('reads both message items of a commentary-then-answer stream, and usage without total_tokens', () => {
    const events = decodeRecording('vendor-phase-text.1.stream.sse');
    const text = events.map(event => (event.type === 'text-delta' ? event.delta : ''));
    expect(text.join('')).toBe("I'm going to search for thatThe capital of France is Paris.");
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finishReason: { unified: 'stop', raw: 'completed' },
      usage: { inputTokens: 50, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: undefined, reasoningTokens: 20 },
    });
  });

  it('joins argument deltas that carry obfuscation padding, and reports the call as a tool-calls finish', () => {
    const events = decodeRecording('vendor-tool-call.1.stream.sse');
    expect(events.filter(event => event.type === 'tool-call-end')).toEqual([
      { type: 'tool-call-end', id: 'fc_scrubbedvendortoolcall01', arguments: '{"city":"Beijing"}' },
    ]);
    expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'completed' } });
  });

  it('ends the reasoning block with the encrypted content of the finished item', () => {
    const events = decodeRecording('vendor-reasoning-tool-call.1.stream.sse');
    const end = events.find(event => event.type === 'reasoning-end') as { encryptedContent?: string };
    expect(end.encryptedContent).toMatch(/^gAAAAAB/);
  });

  it('surfaces the nested error event once, and ignores the response.failed that follows it', () => {
    const events = decodeRecording('vendor-quota-error.1.stream.sse');
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
