import { join } from 'node:path';
import type { FinishReason, OutputPart, StreamEvent, Usage } from '@signalbox/core';
import { listNullPaths } from '@signalbox/core/testing';
import { decodeSSEChunks, readFixture, readJSONFixture } from '@signalbox/sse/testing';
import { encodeAnthropicResponse } from './response/encode-anthropic-response';
import { encodeEvents, fullUsage, testContext } from './testing/stream-test-helpers';

// The API leaves out an optional member that has no value (a text block without citations has no
// `citations`) and strict clients refuse a `null` there: the AI SDK's Anthropic provider 3.x fails
// with "expected array, received null". So the encoders write `null` only where the API's recorded
// answers do (vendor-* fixtures, provenance in __fixtures__/README.md), plus the members it sends on
// every answer whose value a translated answer cannot know (typed nullable in the SDK's `Usage` and
// `RefusalStopDetails`: a refusal's category, the cache breakdown by TTL, the service tier, the geo).
const FIXTURES = join(__dirname, '__fixtures__');
const RECORDED_ANSWERS = [
  'vendor-text.1.response.json',
  'vendor-text-stop-details.1.response.json',
  'vendor-tool-thinking.1.response.json',
];
const RECORDED_STREAMS = [
  'vendor-text.1.stream.sse',
  'vendor-tool-no-arguments.1.stream.sse',
  'vendor-thinking.1.stream.sse',
];
const ANSWER_NULLS_UNKNOWN_TO_A_TRANSLATION = [
  'stop_details.category',
  'stop_details.explanation',
  'usage.cache_creation',
  'usage.service_tier',
  'usage.inference_geo',
];
const STREAM_NULLS_UNKNOWN_TO_A_TRANSLATION = [
  'message_start:message.usage.cache_creation',
  'message_start:message.usage.service_tier',
  'message_start:message.usage.inference_geo',
  'message_delta:delta.stop_details.category',
  'message_delta:delta.stop_details.explanation',
];

/** Null paths of each stream event, named by its type: `message_delta:delta.stop_sequence`. */
function streamNullPaths(payloads: readonly string[]): string[] {
  return payloads.flatMap(data => {
    const payload = JSON.parse(data) as { type: string };
    return listNullPaths(payload).map(path => `${payload.type}:${path}`);
  });
}

const recordedAnswers = RECORDED_ANSWERS.map(
  name => readJSONFixture(FIXTURES, name) as { content: Array<Record<string, unknown>> },
);
const recordedAnswerNulls = new Set(recordedAnswers.flatMap(answer => listNullPaths(answer)));
const recordedStreamNulls = new Set(
  RECORDED_STREAMS.flatMap(name =>
    streamNullPaths(decodeSSEChunks([readFixture(FIXTURES, name)]).map(message => message.data)),
  ),
);
const answerNulls = new Set([...recordedAnswerNulls, ...ANSWER_NULLS_UNKNOWN_TO_A_TRANSLATION]);
const streamNulls = new Set([...recordedStreamNulls, ...STREAM_NULLS_UNKNOWN_TO_A_TRANSLATION]);

const unknownUsage: Usage = {
  inputTokens: undefined,
  outputTokens: undefined,
  cacheReadTokens: undefined,
  cacheWriteTokens: undefined,
  cacheWrite1hTokens: undefined,
  reasoningTokens: undefined,
};
const signed: OutputPart = { type: 'reasoning', text: 'Thinking.', signature: 'c2lnbmVk' };
const call: OutputPart = {
  type: 'tool-call',
  callId: 'toolu_1',
  name: 'get_weather',
  arguments: '{"city":"Oslo"}',
};

/** Answers of every kind a translated route sends: finish reasons, content and usage known or not. */
const ANSWERS: ReadonlyArray<[string, OutputPart[], FinishReason, Usage]> = [
  ['text', [{ type: 'text', text: 'Hi' }], { unified: 'stop', raw: 'stop' }, fullUsage()],
  [
    'text, nothing counted',
    [{ type: 'text', text: 'Hi' }],
    { unified: 'stop', raw: undefined },
    unknownUsage,
  ],
  [
    'a stop sequence',
    [{ type: 'text', text: 'Hi' }],
    { unified: 'stop', raw: 'stop', stopSequence: '##' },
    fullUsage(),
  ],
  [
    'a refusal',
    [{ type: 'refusal', text: 'No.' }],
    { unified: 'content-filter', raw: 'content_filter' },
    fullUsage(),
  ],
  [
    'thinking and a call',
    [signed, call],
    { unified: 'tool-calls', raw: 'tool_calls' },
    fullUsage({ reasoningTokens: 4 }),
  ],
  ['a cut call', [{ ...call, arguments: '{"city":"Os' }], { unified: 'length', raw: 'length' }, fullUsage()],
];

function streamOf(content: readonly OutputPart[], finishReason: FinishReason, usage: Usage): StreamEvent[] {
  const events: StreamEvent[] = [{ type: 'response-start', id: 'up', model: 'upstream', usage }];
  content.forEach((part, index) => {
    const id = String(index);
    if (part.type === 'tool-call') {
      events.push({ type: 'tool-call-start', id, callId: part.callId, toolName: part.name });
      events.push(
        { type: 'tool-call-delta', id, argumentsDelta: part.arguments },
        { type: 'tool-call-end', id },
      );
    } else if (part.type === 'reasoning') {
      events.push({ type: 'reasoning-start', id }, { type: 'reasoning-delta', id, delta: part.text });
      events.push({ type: 'reasoning-end', id, ...(part.signature && { signature: part.signature }) });
    } else {
      events.push({ type: `${part.type}-start`, id }, { type: `${part.type}-delta`, id, delta: part.text });
      events.push({ type: `${part.type}-end`, id });
    }
  });
  events.push({ type: 'response-end', finishReason, usage });
  return events;
}

describe('the Messages encoders write null only where the API writes null', () => {
  it('holds recordings that write null in these places, and leave citations out', () => {
    expect(recordedAnswerNulls).toEqual(
      new Set(['stop_sequence', 'stop_details', 'container', 'diagnostics']),
    );
    expect(recordedStreamNulls).toEqual(
      new Set([
        'message_start:message.stop_reason',
        'message_start:message.stop_sequence',
        'message_start:message.stop_details',
        'message_delta:delta.stop_sequence',
        'message_delta:delta.stop_details',
      ]),
    );
    const textBlocks = recordedAnswers
      .flatMap(answer => answer.content)
      .filter(block => block.type === 'text');
    expect(textBlocks.length).toBeGreaterThan(0);
    for (const block of textBlocks) expect(Object.keys(block)).not.toContain('citations');
  });

  it.each(ANSWERS)('in a JSON answer with %s', (_name, content, finishReason, usage) => {
    const body = encodeAnthropicResponse(
      { id: 'up', model: 'upstream', content, finishReason, usage },
      testContext(),
    );
    const written = listNullPaths(body);
    expect(written.filter(path => !answerNulls.has(path))).toEqual([]);
    // What the API always writes stays, `null` or not.
    for (const member of ['stop_sequence', 'stop_details', 'usage.cache_creation'])
      expect(body).toHaveProperty(member);
  });

  it.each(ANSWERS)('in a stream with %s', (_name, content, finishReason, usage) => {
    const messages = encodeEvents(streamOf(content, finishReason, usage));
    const written = streamNullPaths(messages.map(message => message.data));
    expect(written.filter(path => !streamNulls.has(path))).toEqual([]);
    const delta = JSON.parse(messages.find(message => message.event === 'message_delta')!.data) as object;
    for (const member of ['delta.stop_sequence', 'delta.stop_details']) expect(delta).toHaveProperty(member);
  });

  it('writes a text block without citations, as the API does (never citations: null)', () => {
    const body = encodeAnthropicResponse(
      {
        id: 'up',
        model: 'upstream',
        content: [{ type: 'text', text: 'Hi' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: fullUsage(),
      },
      testContext(),
    );
    expect(body.content).toEqual([{ type: 'text', text: 'Hi' }]);
  });
});
