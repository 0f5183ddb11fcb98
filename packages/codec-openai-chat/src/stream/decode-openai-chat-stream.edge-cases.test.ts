import type { SSEMessage } from '@signalbox/core';
import { comparableEvents } from '@signalbox/core/testing';
import { decodeMessages } from '../testing/decode-test-helpers';
import { createOpenAIChatStreamDecoder } from './decode-openai-chat-stream';

// Hand-built upstream chunks for the quirks the fixtures do not cover.


function chunkData(delta: object, finishReason: string | null = null): SSEMessage {
  return {
    data: JSON.stringify({
      id: 'chatcmpl-1',
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    }),
  };
}

function textOf(
  events: ReturnType<typeof decodeMessages>,
  type: 'text-delta' | 'reasoning-delta' | 'refusal-delta',
) {
  return events.map(event => (event.type === type ? event.delta : '')).join('');
}

describe('createOpenAIChatStreamDecoder edge cases', () => {
  it('ends with stop when [DONE] arrives without any finish_reason', () => {
    const events = decodeMessages([chunkData({ role: 'assistant', content: 'Hi' }), { data: '[DONE]' }]);
    expect(events.at(-1)).toEqual({
      type: 'response-end',
      finishReason: { unified: 'stop', raw: undefined },
      usage: {
        inputTokens: undefined,
        outputTokens: undefined,
        cacheReadTokens: undefined,
        cacheWriteTokens: undefined,
        reasoningTokens: undefined,
      },
    });
  });

  it('treats the usage-only chunk as completion when [DONE] is missing', () => {
    const usage = {
      data: JSON.stringify({
        id: 'chatcmpl-1',
        choices: [],
        usage: { prompt_tokens: 3, completion_tokens: 1 },
      }),
    };
    const events = decodeMessages([chunkData({ content: 'Hi' }), usage]);
    expect(events.at(-1)).toMatchObject({ type: 'response-end', usage: { inputTokens: 3, outputTokens: 1 } });
  });

  it('does not count per-chunk usage (vLLM continuous usage stats) as completion', () => {
    const withUsage = {
      data: JSON.stringify({
        id: 'c',
        choices: [{ index: 0, delta: { content: 'Hi' } }],
        usage: { prompt_tokens: 3, completion_tokens: 1 },
      }),
    };
    expect(decodeMessages([withUsage]).at(-1)).toMatchObject({ type: 'error', code: 'UPSTREAM_FAILED' });
  });

  it('refuses malformed JSON with an error and ignores everything after it', () => {
    const decoder = createOpenAIChatStreamDecoder();
    decoder.push(chunkData({ content: 'Hi' }));
    expect(comparableEvents(decoder.push({ data: '{"choices": [' }))).toEqual([
      {
        type: 'error',
        code: 'UPSTREAM_FAILED',
        message: 'The upstream sent a stream chunk that is not JSON.',
        upstream: undefined,
      },
    ]);
    expect(decoder.push(chunkData({ content: 'more' }))).toEqual([]);
    expect(decoder.push({ data: '[DONE]' })).toEqual([]);
    expect(decoder.end()).toEqual([]);
  });

  it('refuses a chunk that is JSON but not chunk-shaped', () => {
    expect(decodeMessages([{ data: '{"choices": "nope"}' }])[0]).toMatchObject({
      type: 'error',
      code: 'UPSTREAM_FAILED',
    });
  });

  it('reports [DONE] before any chunk as an error', () => {
    expect(decodeMessages([{ data: '[DONE]' }])).toEqual([
      {
        type: 'error',
        code: 'UPSTREAM_FAILED',
        message: 'The upstream stream ended without sending any chunk.',
        upstream: undefined,
      },
    ]);
  });

  it('skips Azure’s leading prompt_filter_results chunk (no choices, no usage)', () => {
    const filter = { data: JSON.stringify({ id: '', model: '', choices: [], prompt_filter_results: [] }) };
    const events = decodeMessages([filter, chunkData({ content: 'Hi' }, 'stop'), { data: '[DONE]' }]);
    expect(events[0]).toEqual({ type: 'response-start', id: 'chatcmpl-1', model: 'm' });
  });

  it('reads an error frame carried with `event: error`', () => {
    const events = decodeMessages([
      { event: 'error', data: '{"type":"rate_limit_exceeded","message":"Slow down"}' },
    ]);
    expect(events).toEqual([
      {
        type: 'error',
        code: 'UPSTREAM_RATE_LIMITED',
        message: 'Upstream error: Slow down',
        upstream: { type: 'rate_limit_exceeded', message: 'Slow down' },
      },
    ]);
  });

  it('reads an error given as a bare string (some compatible servers)', () => {
    const events = decodeMessages([chunkData({ content: 'Hi' }), { data: '{"error":"model is loading"}' }]);
    expect(events.at(-1)).toEqual({
      type: 'error',
      code: 'UPSTREAM_FAILED',
      message: 'Upstream error: model is loading',
      upstream: { message: 'model is loading' },
    });
  });

  it('mints a call id when a compatible server sends a whole tool call without one (Ollama style)', () => {
    const call = { index: 0, function: { name: 'ping', arguments: '{"host":"a"}' } };
    const events = decodeMessages([
      chunkData({ role: 'assistant', content: '', tool_calls: [call] }, 'tool_calls'),
      { data: '[DONE]' },
    ]);
    expect(events[1]).toEqual({
      type: 'tool-call-start',
      id: 'tool-0',
      callId: expect.stringMatching(/^call_/),
      toolName: 'ping',
    });
    expect(events[2]).toEqual({ type: 'tool-call-delta', id: 'tool-0', argumentsDelta: '{"host":"a"}' });
  });

  it('treats a repeated id on later fragments as the same call, and a new id at the same index as a new call', () => {
    const fragment = (id: string, name: string | undefined, args: string) => ({
      index: 0,
      id,
      function: { name, arguments: args },
    });
    const events = decodeMessages([
      chunkData({ tool_calls: [fragment('call_a', 'f', '{')] }),
      chunkData({ tool_calls: [fragment('call_a', undefined, '}')] }),
      chunkData({ tool_calls: [fragment('call_b', 'g', '{}')] }, 'tool_calls'),
      { data: '[DONE]' },
    ]);
    expect(events.filter(event => event.type === 'tool-call-start')).toEqual([
      { type: 'tool-call-start', id: 'tool-0', callId: 'call_a', toolName: 'f' },
      { type: 'tool-call-start', id: 'tool-0-0', callId: 'call_b', toolName: 'g' },
    ]);
  });

  it('closes the open text block when a tool call starts, and skips empty argument fragments', () => {
    const events = decodeMessages([
      chunkData({ content: 'Let me check.' }),
      chunkData({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }],
      }),
      chunkData({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }, 'tool_calls'),
      { data: '[DONE]' },
    ]);
    expect(events.map(event => event.type)).toEqual([
      'response-start',
      'text-start',
      'text-delta',
      'text-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'response-end',
    ]);
  });

  it('refuses argument fragments for a call the stream had already moved past', () => {
    const events = decodeMessages([
      chunkData({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'f', arguments: '{' } }] }),
      chunkData({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'g', arguments: '{}' } }] }),
      chunkData({ tool_calls: [{ index: 0, function: { arguments: '}' } }] }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'error', code: 'UPSTREAM_FAILED' });
  });

  it('never reads choices[0] of an empty choices array and reads only choice 0', () => {
    const otherChoice = {
      data: JSON.stringify({ id: 'c', choices: [{ index: 1, delta: { content: 'other' } }] }),
    };
    const events = decodeMessages([
      chunkData({ content: 'mine' }),
      otherChoice,
      chunkData({}, 'stop'),
      { data: '[DONE]' },
    ]);
    expect(textOf(events, 'text-delta')).toBe('mine');
  });
});
