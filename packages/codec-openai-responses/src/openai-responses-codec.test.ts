import { createUpstreamError, GatewayError, type StreamEvent } from '@signalbox/core';
import { openAIResponsesCodec } from './openai-responses-codec';

describe('openAIResponsesCodec', () => {
  it('is the openai-responses protocol', () => {
    expect(openAIResponsesCodec.protocol).toBe('openai-responses');
  });

  it('translates a request end to end: client body → IR → upstream body', () => {
    const { value } = openAIResponsesCodec.decodeRequest({
      model: 'route-gpt',
      input: 'Hi',
      max_output_tokens: 64,
    });
    expect(openAIResponsesCodec.encodeRequest(value, 'gpt-6').value).toEqual({
      model: 'gpt-6',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
      stream: false,
      max_output_tokens: 64,
      store: false,
    });
  });

  it('renders errors in the OpenAI envelope with the service code and request id', () => {
    const error = new GatewayError({
      code: 'UNSUPPORTED_PARAMETER',
      message: 'No.',
      param: 'previous_response_id',
    });
    expect(openAIResponsesCodec.encodeError(error, 'req_1')).toEqual({
      status: 400,
      body: {
        error: {
          message: 'No.',
          type: 'invalid_request_error',
          param: 'previous_response_id',
          code: 'unsupported_parameter',
        },
        code: 'UNSUPPORTED_PARAMETER',
        request_id: 'req_1',
      },
    });
    const upstream = createUpstreamError({ status: 429, code: 'rate_limit_exceeded', message: 'slow down' });
    expect(openAIResponsesCodec.encodeError(upstream, 'req_2')).toMatchObject({
      status: 429,
      body: {
        error: { type: 'rate_limit_error', code: 'rate_limit_exceeded' },
        code: 'UPSTREAM_RATE_LIMITED',
      },
    });
  });

  it('never puts the cause of an error in the envelope', () => {
    const error = new GatewayError({
      code: 'INTERNAL_ERROR',
      message: 'Internal gateway error.',
      cause: new Error('secret detail'),
    });
    expect(JSON.stringify(openAIResponsesCodec.encodeError(error, 'req_3'))).not.toContain('secret detail');
  });

  it('reads upstream error bodies of any shape', () => {
    expect(
      openAIResponsesCodec.decodeError({
        error: {
          message: "Unknown parameter: 'x'.",
          type: 'invalid_request_error',
          param: 'x',
          code: 'unknown_parameter',
        },
      }),
    ).toEqual({
      message: "Unknown parameter: 'x'.",
      type: 'invalid_request_error',
      param: 'x',
      code: 'unknown_parameter',
    });
    expect(openAIResponsesCodec.decodeError('<html>Bad gateway</html>')).toEqual({
      message: '<html>Bad gateway</html>',
    });
    expect(openAIResponsesCodec.decodeError(undefined)).toEqual({});
  });

  it('streams through its own decoder and encoder', () => {
    const encoder = openAIResponsesCodec.createStreamEncoder({
      request: openAIResponsesCodec.decodeRequest({ model: 'm', input: 'x' }).value,
      createdAt: 1,
    });
    const decoder = openAIResponsesCodec.createStreamDecoder();
    const events: StreamEvent[] = [
      { type: 'response-start', id: 'u', model: 'u' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'ok' },
      { type: 'text-end', id: 't' },
      {
        type: 'response-end',
        finishReason: { unified: 'stop', raw: undefined },
        usage: {
          inputTokens: 1,
          outputTokens: 1,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          cacheWrite1hTokens: undefined,
          reasoningTokens: 0,
        },
      },
    ];
    const decoded = events.flatMap(event => encoder.push(event)).flatMap(message => decoder.push(message));
    expect(decoded.map(event => event.type)).toEqual(events.map(event => event.type));
    expect(decoder.end()).toEqual([]);
  });
});

describe('openAIResponsesCodec: Responses-only fields on other upstreams', () => {
  const describeDropped = openAIResponsesCodec.describeDroppedOptions!;

  it('warns about each dropped field but stream_options and store, which the gateway honours itself', () => {
    expect(describeDropped({ client_metadata: { a: 'b' }, store: false, context_management: [], stream_options: {} })).toEqual([
      { type: 'unsupported-field', field: 'client_metadata', details: "the route's upstream speaks another protocol" },
      { type: 'unsupported-field', field: 'context_management', details: "the route's upstream speaks another protocol" },
    ]);
  });

  it('drops the fields it does not know with one unknown-field warning each, after the known ones', () => {
    const { value } = openAIResponsesCodec.decodeRequest({ model: 'route', input: 'hi', brand_new_field: 1, truncation: 'auto' });
    expect(describeDropped(value.providerOptions!['openai-responses']!).map(warning => `${warning.field} (${warning.type})`)).toEqual([
      'truncation (unsupported-field)',
      'brand_new_field (unknown-field)',
    ]);
  });

  it('sends the fields it does not know back to a Responses upstream as sent when it encodes the request itself', () => {
    const { value } = openAIResponsesCodec.decodeRequest({ model: 'route', input: 'hi', brand_new_field: { a: 1 }, instructions: 'Be brief.' });
    expect(openAIResponsesCodec.encodeRequest(value, 'gpt-6').value).toEqual({
      model: 'gpt-6',
      instructions: 'Be brief.',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      stream: false,
      store: false,
      brand_new_field: { a: 1 },
    });
  });

  it('drops offered built-in and custom tools with one warning each: the model answers without them', () => {
    const tools = [{ type: 'web_search', external_web_access: false }, { type: 'custom', name: 'apply_patch' }];
    expect(describeDropped({ responses_only_tools: tools, prompt_cache_key: 'session-1' })).toEqual([
      { type: 'unsupported-field', field: 'tools: web_search', details: expect.stringContaining('the model answers without it') },
      { type: 'unsupported-field', field: 'tools: custom apply_patch', details: expect.stringContaining('the model answers without it') },
      { type: 'unsupported-field', field: 'prompt_cache_key', details: "the route's upstream speaks another protocol" },
    ]);
  });

  it('names a dropped tool only by a plain identifier, never echoing a secret or a huge string the client put in its type or name', () => {
    const key = `sbx-${'A'.repeat(40)}`;
    const tools = [{ type: key }, { type: 'custom', name: 'x'.repeat(5000) }];
    expect(describeDropped({ responses_only_tools: tools }).map(warning => warning.field)).toEqual(['tools: unknown', 'tools: custom']);
  });

  it.each([
    [{ moderation: { model: 'omni-moderation-latest' } }, 'moderation', 'moderation results'],
    [{ responses_only_items: ['web_search_call'] }, 'input', "'web_search_call'"],
  ])('refuses what would change the answer with a 400 naming it (%#)', (options, param, named) => {
    let refusal: unknown;
    try {
      describeDropped(options);
    } catch (error) {
      refusal = error;
    }
    expect(GatewayError.isInstance(refusal)).toBe(true);
    const error = refusal as GatewayError;
    expect([error.status, error.code, error.param]).toEqual([400, 'UNSUPPORTED_PARAMETER', param]);
    expect(error.message).toContain(named);
    expect(error.message).toContain('routes whose upstream speaks the Responses API');
  });

  it.each([
    [{ type: 'web_search' }, [{ type: 'web_search' }], "tool_choice of type 'web_search' forces a tool"],
    [{ type: 'allowed_tools', mode: 'auto', tools: [{ type: 'web_search' }] }, [{ type: 'web_search' }], "of type 'allowed_tools'"],
    ['required', [{ type: 'web_search' }, { type: 'custom', name: 'apply_patch' }], "tool_choice 'required' asks for a call"],
  ])('refuses a tool_choice that forces a tool only Responses upstreams run, with a 400 on tool_choice (%#)', (toolChoice, tools, named) => {
    const { value } = openAIResponsesCodec.decodeRequest({ model: 'route', input: 'hi', tools, tool_choice: toolChoice });
    let refusal: unknown;
    try {
      describeDropped(value.providerOptions!['openai-responses']!);
    } catch (error) {
      refusal = error;
    }
    const error = refusal as GatewayError;
    expect(GatewayError.isInstance(refusal)).toBe(true);
    expect([error.status, error.code, error.param]).toEqual([400, 'UNSUPPORTED_PARAMETER', 'tool_choice']);
    expect(error.message).toContain(named);
  });

  it("keeps tool_choice 'required' when a function tool is offered next to built-in ones, and sends a built-in choice to Responses upstreams as sent", () => {
    const function_ = { type: 'function', name: 'find', parameters: { type: 'object' } };
    const required = openAIResponsesCodec.decodeRequest({ model: 'r', input: 'hi', tools: [function_, { type: 'web_search' }], tool_choice: 'required' }).value;
    expect(required.toolChoice).toEqual({ type: 'required' });
    expect(describeDropped(required.providerOptions!['openai-responses']!).map(warning => warning.field)).toEqual(['tools: web_search']);
    const choice = { type: 'allowed_tools', mode: 'required', tools: [{ type: 'web_search' }] };
    const forced = openAIResponsesCodec.decodeRequest({ model: 'r', input: 'hi', tools: [{ type: 'web_search' }], tool_choice: choice }).value;
    expect(forced.toolChoice).toBeUndefined();
    const body = openAIResponsesCodec.encodeRequest(forced, 'gpt-6').value;
    expect([body.tool_choice, body.tools]).toEqual([choice, [{ type: 'web_search' }]]);
    expect(Object.keys(body)).not.toContain('responses_only_tool_choice');
  });

  it('sends namespaced functions and their replayed calls to a Responses upstream grouped again, built-in tools as sent', () => {
    const { value } = openAIResponsesCodec.decodeRequest({
      model: 'route',
      input: [{ type: 'function_call', call_id: 'c1', name: 'find', namespace: 'crm', arguments: '{}' }],
      tools: [
        { type: 'namespace', name: 'crm', description: 'Customers', tools: [{ type: 'function', name: 'find', parameters: { type: 'object' } }] },
        { type: 'web_search' },
      ],
    });
    const body = openAIResponsesCodec.encodeRequest(value, 'gpt-6').value;
    expect(body.tools).toEqual([
      { type: 'namespace', name: 'crm', description: 'Customers', tools: [{ type: 'function', name: 'find', parameters: { type: 'object' }, strict: false }] },
      { type: 'web_search' },
    ]);
    expect(body.input).toEqual([{ type: 'function_call', call_id: 'c1', name: 'find', namespace: 'crm', arguments: '{}' }]);
    expect(body).not.toHaveProperty('responses_only_tools');
  });

  it('answers a flat namespaced call under the function name and namespace the client declared', () => {
    const { value: request } = openAIResponsesCodec.decodeRequest({
      model: 'route',
      input: 'x',
      tools: [{ type: 'namespace', name: 'crm', description: '', tools: [{ type: 'function', name: 'find' }] }],
    });
    const body = openAIResponsesCodec.encodeResponse(
      {
        id: 'up_1',
        model: 'up',
        content: [{ type: 'tool-call', callId: 'c1', name: 'crm__find', arguments: '{}' }],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: undefined, reasoningTokens: 0 },
      },
      { request, createdAt: 1 },
    );
    expect(body.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'find', namespace: 'crm', call_id: 'c1' })]);
  });
});
