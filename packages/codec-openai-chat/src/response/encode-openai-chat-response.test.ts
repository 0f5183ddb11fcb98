import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { EncodeContext, GenerationResponse, Usage } from '@signalbox/core';
import { decodeOpenAIChatResponse } from './decode-openai-chat-response';
import { encodeOpenAIChatResponse } from './encode-openai-chat-response';

const context: EncodeContext = {
  request: { model: 'client-model', system: [], messages: [], stream: false },
  createdAt: 1763769600,
};
const usage: Usage = {
  inputTokens: 100,
  outputTokens: 20,
  cacheReadTokens: 80,
  cacheWriteTokens: 5,
  cacheWrite1hTokens: undefined,
  reasoningTokens: 4,
};

function response(
  content: GenerationResponse['content'],
  unified: GenerationResponse['finishReason']['unified'] = 'stop',
): GenerationResponse {
  return {
    id: 'upstream-id',
    model: 'upstream-model',
    content,
    finishReason: { unified, raw: 'whatever' },
    usage,
  };
}

describe('encodeOpenAIChatResponse', () => {
  it('builds a complete chat.completion with the client model and a gateway id', () => {
    const body = encodeOpenAIChatResponse(
      response([
        { type: 'reasoning', text: 'hidden' },
        { type: 'text', text: 'Hello' },
        { type: 'text', text: ' world' },
      ]),
      context,
    ) as unknown as ChatCompletion;
    expect(body).toEqual({
      id: expect.stringMatching(/^chatcmpl-[A-Za-z0-9]{24}$/),
      object: 'chat.completion',
      created: 1763769600,
      model: 'client-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hello world', refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        prompt_tokens_details: { cached_tokens: 80, cache_write_tokens: 5 },
        completion_tokens_details: { reasoning_tokens: 4 },
      },
    });
  });

  it('uses content null and finish_reason tool_calls when the answer is only tool calls', () => {
    const body = encodeOpenAIChatResponse(
      response([{ type: 'tool-call', callId: 'toolu_1', name: 'f', arguments: '' }], 'stop'),
      context,
    ) as unknown as ChatCompletion;
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        annotations: [],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
  });

  it.each([
    ['length', 'length'],
    ['content-filter', 'content_filter'],
    ['tool-calls', 'stop'],
    ['error', 'stop'],
    ['other', 'stop'],
  ] as const)('maps finish reason %s to %s when no tool call went out', (unified, expected) => {
    const body = encodeOpenAIChatResponse(
      response([{ type: 'text', text: 'x' }], unified),
      context,
    ) as unknown as ChatCompletion;
    expect(body.choices[0]?.finish_reason).toBe(expected);
  });

  it.each([
    ['length', 'length'],
    ['content-filter', 'content_filter'],
  ] as const)(
    'keeps %s with tool calls: the arguments of a cut answer may be unfinished JSON',
    (unified, expected) => {
      const cut = '{"city":"Os';
      const body = encodeOpenAIChatResponse(
        response([{ type: 'tool-call', callId: 'toolu_1', name: 'f', arguments: cut }], unified),
        context,
      ) as unknown as ChatCompletion;
      expect(body.choices[0]?.finish_reason).toBe(expected);
      expect(body.choices[0]?.message.tool_calls).toEqual([
        { id: 'toolu_1', type: 'function', function: { name: 'f', arguments: cut } },
      ]);
    },
  );

  it('carries a refusal in `refusal` with content null, and zeros for unreported usage', () => {
    const empty: Usage = {
      inputTokens: undefined,
      outputTokens: undefined,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
      cacheWrite1hTokens: undefined,
      reasoningTokens: undefined,
    };
    const body = encodeOpenAIChatResponse(
      { ...response([{ type: 'refusal', text: 'No.' }], 'content-filter'), usage: empty },
      context,
    ) as unknown as ChatCompletion;
    expect(body.choices[0]?.message).toMatchObject({ content: null, refusal: 'No.' });
    expect(body.usage).toEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      total_tokens: 0,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('round-trips: decode(encode(response)) keeps content, finish reason and usage', () => {
    const original = response(
      [
        { type: 'text', text: 'Calling.' },
        { type: 'refusal', text: 'Partly no.' },
        { type: 'tool-call', callId: 'call_a', name: 'f', arguments: '{"x":1}' },
        { type: 'tool-call', callId: 'call_b', name: 'g', arguments: '{}' },
      ],
      'tool-calls',
    );
    const decoded = decodeOpenAIChatResponse(encodeOpenAIChatResponse(original, context));
    expect(decoded).toEqual({
      ...original,
      id: expect.stringMatching(/^chatcmpl-/),
      model: 'client-model',
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    });
  });
});
