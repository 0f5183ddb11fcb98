import { readFileSync } from 'node:fs';
import type { EncodeContext, GenerationRequest, GenerationResponse } from '@signalbox/core';
import { gatewayErrorOf } from '@signalbox/core/testing';
import { decodeOpenAIResponsesResponse } from './decode-openai-responses-response';
import { encodeOpenAIResponsesResponse } from './encode-openai-responses-response';

// Wire-shaped synthetic bodies; provenance in __fixtures__/README.md.
const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(`${__dirname}/../__fixtures__/${name}`, 'utf8'));

const request: GenerationRequest = {
  model: 'route-gpt',
  system: [{ type: 'text', text: 'Be terse.' }],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  stream: false,
};
const context: EncodeContext = { request, createdAt: 1763769600 };

describe('decodeOpenAIResponsesResponse', () => {
  it('reads reasoning and text output with usage', () => {
    expect(decodeOpenAIResponsesResponse(fixture('text-reasoning.1.response.json'))).toEqual({
      id: 'resp_fixture01',
      model: 'gpt-6-2026-01-01',
      content: [
        { type: 'reasoning', text: 'Think.', encryptedContent: 'ZW5jcnlwdGVk' },
        { type: 'text', text: 'Hello world' },
      ],
      finishReason: { unified: 'stop', raw: 'completed' },
      usage: {
        inputTokens: 12,
        outputTokens: 20,
        cacheReadTokens: 2,
        cacheWriteTokens: 0,
        cacheWrite1hTokens: undefined,
        reasoningTokens: 18,
      },
    });
  });

  it('reports tool-calls when the completed output holds a function call', () => {
    const response = decodeOpenAIResponsesResponse(fixture('function-call.1.response.json'));
    expect(response.content).toEqual([
      { type: 'tool-call', callId: 'call_fixture9', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ]);
    expect(response.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
  });

  it('maps incomplete/content_filter and keeps refusal parts', () => {
    const response = decodeOpenAIResponsesResponse(fixture('incomplete-filter.1.response.json'));
    expect(response.finishReason).toEqual({ unified: 'content-filter', raw: 'content_filter' });
    expect(response.content).toEqual([
      { type: 'text', text: 'Once upon' },
      { type: 'refusal', text: "I can't finish that." },
    ]);
  });

  it('throws the upstream error of a failed response', () => {
    const error = gatewayErrorOf(() => decodeOpenAIResponsesResponse(fixture('failed.1.response.json')));
    expect(error.code).toBe('UPSTREAM_RATE_LIMITED');
    expect(error.upstream).toEqual({
      code: 'rate_limit_exceeded',
      message: 'Rate limit reached for requests.',
    });
  });

  it('refuses a body that is not a Response as UPSTREAM_FAILED', () => {
    for (const body of [
      '<html>',
      { object: 'chat.completion', choices: [] },
      { id: 'r', output: [{ type: 'function_call' }] },
    ]) {
      const error = gatewayErrorOf(() => decodeOpenAIResponsesResponse(body));
      expect(error.code).toBe('UPSTREAM_FAILED');
      expect(error.message).toContain('malformed Responses body');
    }
  });

  it('leaves unreported usage undefined and skips built-in tool items', () => {
    const response = decodeOpenAIResponsesResponse({
      id: 'r',
      status: 'completed',
      output: [{ type: 'web_search_call', id: 'ws' }],
    });
    expect(response.content).toEqual([]);
    expect(response.usage).toEqual({
      inputTokens: undefined,
      outputTokens: undefined,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
      cacheWrite1hTokens: undefined,
      reasoningTokens: undefined,
    });
  });
});

describe('encodeOpenAIResponsesResponse', () => {
  const response: GenerationResponse = {
    id: 'upstream-1',
    model: 'upstream-model',
    content: [
      { type: 'reasoning', text: 'Think.', encryptedContent: 'blob' },
      { type: 'text', text: 'Hello ' },
      { type: 'text', text: 'world' },
      { type: 'tool-call', callId: 'call_1', name: 'f', arguments: '{}' },
    ],
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage: {
      inputTokens: 10,
      outputTokens: 5,
      cacheReadTokens: undefined,
      cacheWriteTokens: undefined,
      cacheWrite1hTokens: undefined,
      reasoningTokens: undefined,
    },
  };

  it('says store: true unless the request opted out, since the gateway keeps the response itself', () => {
    const optedOut = { ...request, providerOptions: { 'openai-responses': { store: false } } };
    expect(encodeOpenAIResponsesResponse(response, context).store).toBe(true);
    expect(encodeOpenAIResponsesResponse(response, { ...context, request: optedOut }).store).toBe(false);
  });

  it('renders every member of the public Response object', () => {
    const body = encodeOpenAIResponsesResponse(response, context);
    expect(body).toEqual({
      id: expect.stringMatching(/^resp_/),
      object: 'response',
      created_at: 1763769600,
      status: 'completed',
      background: false,
      completed_at: expect.any(Number),
      error: null,
      incomplete_details: null,
      instructions: 'Be terse.',
      max_output_tokens: null,
      model: 'route-gpt',
      output: [
        {
          type: 'reasoning',
          id: expect.stringMatching(/^rs_/),
          summary: [{ type: 'summary_text', text: 'Think.' }],
          encrypted_content: 'blob',
        },
        {
          type: 'message',
          id: expect.stringMatching(/^msg_/),
          role: 'assistant',
          status: 'completed',
          content: [
            { type: 'output_text', text: 'Hello ', annotations: [] },
            { type: 'output_text', text: 'world', annotations: [] },
          ],
        },
        {
          type: 'function_call',
          id: expect.stringMatching(/^fc_/),
          call_id: 'call_1',
          name: 'f',
          arguments: '{}',
          status: 'completed',
        },
      ],
      parallel_tool_calls: true,
      previous_response_id: null,
      reasoning: { effort: null, summary: null },
      store: true,
      temperature: 1,
      text: { format: { type: 'text' } },
      tool_choice: 'auto',
      tools: [],
      top_p: 1,
      truncation: 'disabled',
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: 5,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 15,
      },
      user: null,
      metadata: {},
    });
  });

  it('echoes the client request fields', () => {
    const body = encodeOpenAIResponsesResponse(response, {
      createdAt: 1,
      request: {
        ...request,
        maxOutputTokens: 100,
        temperature: 0.3,
        topP: 0.8,
        parallelToolCalls: false,
        toolChoice: { type: 'tool', name: 'f' },
        tools: [{ name: 'f', inputSchema: { type: 'object' }, strict: true }],
        reasoning: { effort: 'low' },
        responseFormat: { type: 'json-object' },
        metadata: { k: 'v' },
        providerOptions: {
          'openai-responses': {
            reasoning: { summary: 'auto' },
            truncation: 'auto',
            text: { verbosity: 'low' },
          },
        },
      },
    });
    expect(body).toMatchObject({
      max_output_tokens: 100,
      temperature: 0.3,
      top_p: 0.8,
      parallel_tool_calls: false,
      tool_choice: { type: 'function', name: 'f' },
      tools: [
        { type: 'function', name: 'f', description: null, parameters: { type: 'object' }, strict: true },
      ],
      reasoning: { effort: 'low', summary: 'auto' },
      text: { format: { type: 'json_object' }, verbosity: 'low' },
      truncation: 'auto',
      metadata: { k: 'v' },
    });
  });

  it.each([
    ['length', 'max_output_tokens'],
    ['content-filter', 'content_filter'],
  ] as const)('marks a %s finish incomplete with reason %s', (unified, reason) => {
    const body = encodeOpenAIResponsesResponse(
      { ...response, content: [{ type: 'text', text: 'Cut' }], finishReason: { unified, raw: undefined } },
      context,
    );
    expect(body).toMatchObject({ status: 'incomplete', incomplete_details: { reason }, completed_at: null });
    expect(body.output).toEqual([expect.objectContaining({ type: 'message', status: 'incomplete' })]);
  });

  it('renders an IR error finish as failed, never as a success', () => {
    const body = encodeOpenAIResponsesResponse(
      { ...response, finishReason: { unified: 'error', raw: 'pause_turn' } },
      context,
    );
    expect(body).toMatchObject({ status: 'failed', error: { code: 'server_error' } });
  });

  it('round-trips through decode', () => {
    for (const name of [
      'text-reasoning.1.response.json',
      'function-call.1.response.json',
      'incomplete-filter.1.response.json',
    ]) {
      const decoded = decodeOpenAIResponsesResponse(fixture(name));
      const again = decodeOpenAIResponsesResponse(encodeOpenAIResponsesResponse(decoded, context));
      expect({ ...again, id: decoded.id, model: decoded.model }).toEqual({
        ...decoded,
        usage: { ...decoded.usage, cacheWriteTokens: decoded.usage.cacheWriteTokens ?? 0 },
      });
    }
  });
});
