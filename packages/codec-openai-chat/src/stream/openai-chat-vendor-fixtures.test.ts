import { join } from 'node:path';
import type { ComparableEvent } from '@signalbox/core/testing';
import { decodeOpenAIError } from '@signalbox/codec-openai-shared';
import {
  decodeStreamChunks,
  describeVendorStreamRecordings,
  readFixture,
  readJSONFixture,
} from '@signalbox/sse/testing';
import { decodeOpenAIChatResponse } from '../response/decode-openai-chat-response';
import { createOpenAIChatStreamDecoder } from './decode-openai-chat-stream';

// Vendor-shaped recordings of Chat Completions streams (real chunk bytes, scrubbed ids); where
// each one comes from is listed in __fixtures__/README.md.
const FIXTURES = join(__dirname, '../__fixtures__');
const STREAMS = [
  'vendor-text.1.stream.sse',
  'vendor-tool-call.1.stream.sse',
  'vendor-compatible-tool-call.1.stream.sse',
  'vendor-server-error.1.stream.sse',
] as const;

const decodeRecording = (name: string) =>
  decodeStreamChunks(createOpenAIChatStreamDecoder(), [readFixture(FIXTURES, name)]);
const readJSON = (name: string) => readJSONFixture(FIXTURES, name);

/** The arguments of each call, joined from its deltas (Chat sends them only as fragments). */
function argumentsByCall(events: readonly ComparableEvent[]): Record<string, string> {
  const joined: Record<string, string> = {};
  for (const event of events)
    if (event.type === 'tool-call-delta') joined[event.id] = (joined[event.id] ?? '') + event.argumentsDelta;
  return joined;
}

describe('createOpenAIChatStreamDecoder on vendor recordings', () => {
  describeVendorStreamRecordings({
    directory: FIXTURES,
    names: STREAMS,
    createDecoder: createOpenAIChatStreamDecoder,
    chunkSizes: [1, 7, 64],
  });

  it('reads text chunks that carry obfuscation padding, and the usage-only chunk after the finish', () => {
    const events = decodeRecording('vendor-text.1.stream.sse');
    const text = events.map(event => (event.type === 'text-delta' ? event.delta : '')).join('');
    expect(text).toBe('**Holiday Name:** Harmony Day\n\n**Date:** Celebrated annually on the first Saturday of May');
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: 16, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: undefined, reasoningTokens: 0 },
    });
  });

  it('keeps the argument fragment that arrives with the call id and name', () => {
    const events = decodeRecording('vendor-tool-call.1.stream.sse');
    expect(argumentsByCall(events)).toEqual({ 'tool-0': '{"value":"Sparkle Day"}' });
    expect(events.filter(event => event.type === 'tool-call-end')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: { inputTokens: 53, outputTokens: 17 },
    });
  });

  it('reads one call from a compatible server that repeats usage in every chunk and sends an empty fragment with the finish', () => {
    const events = decodeRecording('vendor-compatible-tool-call.1.stream.sse');
    expect(events.filter(event => event.type === 'tool-call-start')).toHaveLength(1);
    expect(argumentsByCall(events)).toEqual({ 'tool-0': '{"query": "latest news on ai"}' });
    expect(events.filter(event => event.type === 'tool-call-end')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({
      finishReason: { unified: 'tool-calls' },
      usage: { inputTokens: 226, outputTokens: 20 },
    });
  });

  it('turns a data-only error chunk into one upstream error, whatever follows it', () => {
    const events = decodeRecording('vendor-server-error.1.stream.sse');
    expect(events).toEqual([
      expect.objectContaining({ type: 'error', upstream: expect.objectContaining({ type: 'server_error' }) as unknown }),
    ]);
  });
});

describe('OpenAI Chat vendor JSON bodies', () => {
  it('decodes a recorded non-streaming text answer', () => {
    expect(decodeOpenAIChatResponse(readJSON('vendor-text.1.response.json'))).toMatchSnapshot();
  });

  it('reads message, type, param and code from a recorded 400 body', () => {
    expect(decodeOpenAIError(readJSON('vendor-unsupported-parameter.1.error.json'))).toEqual({
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unsupported_parameter',
    });
  });
});
