import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError, type FinishReason, type GenerationResponse } from '@signalbox/core';
import { testContext } from '../testing/stream-test-helpers';
import { decodeAnthropicResponse } from './decode-anthropic-response';
import { encodeAnthropicResponse } from './encode-anthropic-response';

// Wire-shaped synthetic response bodies; provenance in __fixtures__/README.md.
function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(__dirname, '../__fixtures__', name), 'utf8'));
}

const usage = {
  inputTokens: 100,
  outputTokens: 20,
  cacheReadTokens: 30,
  cacheWriteTokens: 10,
  cacheWrite1hTokens: undefined,
  reasoningTokens: undefined,
};

function response(overrides: Partial<GenerationResponse>): GenerationResponse {
  return {
    id: 'up',
    model: 'upstream',
    content: [{ type: 'text', text: 'Hi' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    ...overrides,
  };
}

describe('decodeAnthropicResponse', () => {
  it('decodes a text answer with IR usage (cached tokens included in input)', () => {
    expect(decodeAnthropicResponse(fixture('text-basic.1.response.json'))).toEqual({
      id: 'msg_01SyntheticTextBasic',
      model: 'claude-sonnet-5',
      content: [{ type: 'text', text: 'Grüße aus Oslo 🌍!' }],
      finishReason: { unified: 'stop', raw: 'end_turn' },
      usage: {
        inputTokens: 1312,
        outputTokens: 9,
        cacheReadTokens: 1200,
        cacheWriteTokens: 100,
        cacheWrite1hTokens: undefined,
        reasoningTokens: undefined,
      },
    });
  });

  it('decodes thinking, redacted thinking and tool use, skipping server-tool blocks', () => {
    const decoded = decodeAnthropicResponse(fixture('tool-use-thinking.1.response.json'));
    expect(decoded.content).toEqual([
      {
        type: 'reasoning',
        text: 'I should look up the weather.',
        signature: 'c3ludGhldGljLXRoaW5raW5nLXNpZ25hdHVyZS0wMg==',
      },
      { type: 'reasoning', text: '', redactedData: 'c3ludGhldGljLXJlZGFjdGVkLXRoaW5raW5n' },
      { type: 'text', text: 'Let me check.' },
      {
        type: 'tool-call',
        callId: 'toolu_01SyntheticOslo',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      },
    ]);
    expect(decoded.finishReason).toEqual({ unified: 'tool-calls', raw: 'tool_use' });
    expect(decoded.usage).toEqual({
      inputTokens: 1510,
      outputTokens: 42,
      cacheReadTokens: 1200,
      cacheWriteTokens: 0,
      cacheWrite1hTokens: undefined,
      reasoningTokens: 12,
    });
  });

  it('keeps the matched stop sequence and leaves unreported counts undefined', () => {
    const decoded = decodeAnthropicResponse(fixture('stop-sequence.1.response.json'));
    expect(decoded.finishReason).toEqual({ unified: 'stop', raw: 'stop_sequence', stopSequence: '4' });
    expect(decoded.usage).toEqual({
      inputTokens: 20,
      outputTokens: 7,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
      cacheWrite1hTokens: undefined,
      reasoningTokens: undefined,
    });
  });

  it.each([
    ['end_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool-calls'],
    ['refusal', 'content-filter'],
    ['something_new', 'other'],
  ])('maps stop_reason %s to %s', (raw, unified) => {
    const body = { id: 'msg_1', type: 'message', model: 'm', content: [], stop_reason: raw, usage: {} };
    expect(decodeAnthropicResponse(body).finishReason).toEqual({ unified, raw });
  });

  it('reads a paused turn as the unfinished (error) finish, never a clean stop, keeping its text', () => {
    const decoded = decodeAnthropicResponse(fixture('pause-turn.1.response.json'));
    expect(decoded.finishReason).toEqual({ unified: 'error', raw: 'pause_turn' });
    // The server-tool blocks have no IR form; the text before them is kept.
    expect(decoded.content).toEqual([{ type: 'text', text: 'I will look up the ferry times.' }]);
    expect(decoded.usage).toMatchObject({ inputTokens: 412, outputTokens: 61 });
  });

  it.each([
    ['an error envelope', fixture('error-rate-limit.1.error.json')],
    ['a string', 'Bad Gateway'],
    ['a Chat completion', { id: 'chatcmpl-1', object: 'chat.completion', choices: [] }],
    ['a malformed text block', { id: 'msg_1', content: [{ type: 'text' }] }],
  ])('refuses %s as a malformed upstream body', (_name, body) => {
    expect(() => decodeAnthropicResponse(body)).toThrow(GatewayError);
    try {
      decodeAnthropicResponse(body);
    } catch (error) {
      expect((error as GatewayError).code).toBe('UPSTREAM_FAILED');
      expect((error as GatewayError).message).toMatch(/malformed/);
    }
  });
});

describe('encodeAnthropicResponse', () => {
  it('renders a complete Message with the client model and a minted id', () => {
    const body = encodeAnthropicResponse(response({}), testContext());
    expect(body).toEqual({
      id: expect.stringMatching(/^msg_[A-Za-z0-9]{24}$/),
      type: 'message',
      role: 'assistant',
      model: 'client-model',
      content: [{ type: 'text', text: 'Hi' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: null,
      usage: {
        input_tokens: 60,
        cache_creation_input_tokens: 10,
        cache_read_input_tokens: 30,
        cache_creation: null,
        output_tokens: 20,
        service_tier: null,
        inference_geo: null,
      },
    });
  });

  it('emits only signed or redacted reasoning, tool_use with parsed input, refusals as text', () => {
    const body = encodeAnthropicResponse(
      response({
        content: [
          { type: 'reasoning', text: 'OpenAI summary', encryptedContent: 'blob' },
          { type: 'reasoning', text: 'signed', signature: 'sig' },
          { type: 'reasoning', text: '', redactedData: 'opaque' },
          { type: 'refusal', text: 'I cannot help with that.' },
          { type: 'text', text: '' },
          { type: 'tool-call', callId: 'call_1', name: 'f', arguments: '{"a":1}' },
          { type: 'tool-call', callId: 'call_2', name: 'g', arguments: '' },
        ],
        finishReason: { unified: 'stop', raw: 'stop' },
      }),
      testContext(),
    );
    expect(body.content).toEqual([
      { type: 'thinking', thinking: 'signed', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'I cannot help with that.' },
      { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 }, caller: { type: 'direct' } },
      { type: 'tool_use', id: 'call_2', name: 'g', input: {}, caller: { type: 'direct' } },
    ]);
    // Any tool_use block means tool_use, whatever the upstream said (OpenAI says `stop` for forced calls).
    expect(body.stop_reason).toBe('tool_use');
  });

  it.each<[FinishReason, string, string | null]>([
    [{ unified: 'stop', raw: 'stop' }, 'end_turn', null],
    [{ unified: 'stop', raw: 'stop_sequence', stopSequence: 'END' }, 'stop_sequence', 'END'],
    [{ unified: 'length', raw: 'length' }, 'max_tokens', null],
    // Without a tool_use block a `tool_use` stop would promise a call that is not there.
    [{ unified: 'tool-calls', raw: 'tool_calls' }, 'end_turn', null],
    [{ unified: 'content-filter', raw: 'content_filter' }, 'refusal', null],
    [{ unified: 'other', raw: undefined }, 'end_turn', null],
    [{ unified: 'error', raw: 'failed' }, 'end_turn', null],
  ])('maps finish reason %j to %s', (finishReason, stopReason, stopSequence) => {
    const body = encodeAnthropicResponse(response({ finishReason }), testContext());
    expect(body.stop_reason).toBe(stopReason);
    expect(body.stop_sequence).toBe(stopSequence);
  });

  it('reports output_tokens 0 and never a negative input count when usage is unknown or odd', () => {
    const body = encodeAnthropicResponse(
      response({
        usage: {
          inputTokens: 5,
          outputTokens: undefined,
          cacheReadTokens: 10,
          cacheWriteTokens: undefined,
          cacheWrite1hTokens: undefined,
          reasoningTokens: 3,
        },
      }),
      testContext(),
    );
    expect(body.usage).toMatchObject({
      input_tokens: 0,
      cache_read_input_tokens: 10,
      output_tokens: 0,
      output_tokens_details: { thinking_tokens: 3 },
    });
  });

  it.each([
    'text-basic.1.response.json',
    'tool-use-thinking.1.response.json',
    'stop-sequence.1.response.json',
  ])('round-trips %s through the IR', name => {
    const decoded = decodeAnthropicResponse(fixture(name));
    const again = decodeAnthropicResponse(encodeAnthropicResponse(decoded, testContext()));
    expect({ ...again, id: decoded.id, model: decoded.model }).toEqual({
      ...decoded,
      // Messages always reports cache counts, so unknown ones come back as 0.
      usage: {
        ...decoded.usage,
        cacheReadTokens: decoded.usage.cacheReadTokens ?? 0,
        cacheWriteTokens: decoded.usage.cacheWriteTokens ?? 0,
      },
    });
  });
});
