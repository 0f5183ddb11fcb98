import { join } from 'node:path';
import {
  decodeStreamChunks,
  describeVendorStreamRecordings,
  readFixture,
  readJSONFixture,
} from '@signalbox/sse/testing';
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

const decodeRecording = (name: string) =>
  decodeStreamChunks(createAnthropicStreamDecoder(), [readFixture(FIXTURES, name)]);
const readJSON = (name: string) => readJSONFixture(FIXTURES, name);

describe('createAnthropicStreamDecoder on vendor recordings', () => {
  describeVendorStreamRecordings({
    directory: FIXTURES,
    names: STREAMS,
    createDecoder: createAnthropicStreamDecoder,
    chunkSizes: [1, 3, 64],
  });

  it('reads a text answer whose message_delta repeats the input counts', () => {
    const events = decodeRecording('vendor-text.1.stream.sse');
    const text = events.map(event => (event.type === 'text-delta' ? event.delta : ''));
    expect(text.join('')).toBe("Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?");
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: { inputTokens: 12, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0, reasoningTokens: undefined },
    });
  });

  it('gives a tool called without arguments an empty JSON object and reports the tool_use stop', () => {
    const events = decodeRecording('vendor-tool-no-arguments.1.stream.sse');
    expect(events.filter(event => event.type === 'tool-call-end')).toEqual([
      expect.objectContaining({ type: 'tool-call-end' }),
    ]);
    expect(events.at(-1)).toMatchObject({ finishReason: { unified: 'tool-calls', raw: 'tool_use' } });
  });

  it('keeps the thinking signature and the thinking token count of a padded stream', () => {
    const events = decodeRecording('vendor-thinking.1.stream.sse');
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
