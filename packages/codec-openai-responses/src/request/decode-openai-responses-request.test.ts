import { readFileSync } from 'node:fs';
import { composeForeignFields, type DecodeOptions } from '@signalbox/core';
import { gatewayErrorOf } from '@signalbox/core/testing';
import { openAIResponsesDescriptor } from '../openai-responses-descriptor';
import { decodeOpenAIResponsesRequest } from './decode-openai-responses-request';

// Wire-shaped synthetic request; provenance in __fixtures__/README.md.
const agentTurn: unknown = JSON.parse(
  readFileSync(`${__dirname}/../__fixtures__/agent-turn.1.request.json`, 'utf8'),
);

const refusal = (body: unknown, options?: DecodeOptions) => gatewayErrorOf(() => decodeOpenAIResponsesRequest(body, options));

describe('decodeOpenAIResponsesRequest: valid bodies', () => {
  it('reads the minimal form: a string input is one user message', () => {
    expect(decodeOpenAIResponsesRequest({ model: 'route-gpt', input: 'Hi' })).toEqual({
      value: {
        model: 'route-gpt',
        system: [],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        stream: false,
      },
      warnings: [],
    });
  });

  it('reads a full agent turn', () => {
    const { value, warnings } = decodeOpenAIResponsesRequest(agentTurn);
    expect(warnings).toEqual([]);
    expect(value).toMatchSnapshot();
    expect(value.system).toEqual([{ type: 'text', text: 'Be terse.' }]);
    expect(value.messages.map(message => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'user',
    ]);
    // reasoning + assistant message + function_call merge into one assistant turn, in order.
    expect(value.messages[2]).toEqual({
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'Look it up.', encryptedContent: 'ZW5jcnlwdGVkLWJsb2I=' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool-call', callId: 'call_9', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      ],
    });
    expect(value.messages[1]!.content.slice(1)).toEqual([
      {
        type: 'image',
        source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        detail: 'low',
      },
      {
        type: 'file',
        source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' },
        filename: 'notes.pdf',
      },
    ]);
    expect(value).toMatchObject({
      stream: true,
      maxOutputTokens: 512,
      temperature: 0.2,
      parallelToolCalls: false,
      toolChoice: { type: 'auto' },
      reasoning: { effort: 'low' },
      responseFormat: { type: 'text' },
      metadata: { ticket: 'T-1' },
      user: 'user-hash-1',
      tools: [{ name: 'get_weather', description: 'Current weather for a city.', strict: true }],
    });
    expect(value.providerOptions).toEqual({
      'openai-responses': {
        store: false,
        include: ['reasoning.encrypted_content'],
        text: { verbosity: 'low' },
        reasoning: { summary: 'auto' },
      },
    });
  });

  it('groups consecutive function_call_outputs into one tool message, with part outputs', () => {
    const { value } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: [
        { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
        { type: 'function_call', call_id: 'b', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'a', output: 'one' },
        {
          type: 'function_call_output',
          call_id: 'b',
          output: [
            { type: 'input_text', text: 'two' },
            { type: 'input_image', image_url: 'https://example.com/a.png' },
          ],
        },
      ],
    });
    expect(value.messages).toEqual([
      {
        role: 'assistant',
        content: [expect.objectContaining({ callId: 'a' }), expect.objectContaining({ callId: 'b' })],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', callId: 'a', content: [{ type: 'text', text: 'one' }] },
          {
            type: 'tool-result',
            callId: 'b',
            content: [
              { type: 'text', text: 'two' },
              { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
            ],
          },
        ],
      },
    ]);
  });

  it('reads easy and typed messages of every role, with refusal and string content', () => {
    const { value } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: [
        { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'S' }] },
        { role: 'user', content: 'U' },
        { role: 'assistant', content: 'A' },
        { type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
        { role: 'developer', content: 'D' },
      ],
    });
    expect(value.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'S' }] },
      { role: 'user', content: [{ type: 'text', text: 'U' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'A' },
          { type: 'refusal', text: 'No.' },
        ],
      },
      { role: 'system', content: [{ type: 'text', text: 'D' }] },
    ]);
  });

  it('warns when assistant history annotations are dropped', () => {
    const { warnings } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: [
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'x', annotations: [{ type: 'url_citation' }] }],
        },
      ],
    });
    expect(warnings).toEqual([
      expect.objectContaining({ type: 'lossy-conversion', field: 'input.0.content.0.annotations' }),
    ]);
  });

  it('accepts null for nullable fields, background: false, and a file URL', () => {
    const { value } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: [{ role: 'user', content: [{ type: 'input_file', file_url: 'https://example.com/a.pdf' }] }],
      instructions: null,
      temperature: null,
      previous_response_id: null,
      background: false,
      user: 'legacy',
    });
    expect(value.system).toEqual([]);
    expect(value.temperature).toBeUndefined();
    expect(value.user).toBe('legacy');
    expect(value.providerOptions).toEqual({ 'openai-responses': { background: false } });
    expect(value.messages[0]!.content[0]).toEqual({
      type: 'file',
      source: { kind: 'url', url: 'https://example.com/a.pdf' },
    });
  });

  it('maps text.format json_schema and a forced function tool_choice', () => {
    const { value } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: 'x',
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
      tools: [{ type: 'function', name: 'f' }],
      tool_choice: { type: 'function', name: 'f' },
      safety_identifier: 'safe',
      user: 'legacy',
    });
    expect(value.responseFormat).toEqual({
      type: 'json-schema',
      name: 'answer',
      schema: { type: 'object' },
      strict: true,
    });
    expect(value.toolChoice).toEqual({ type: 'tool', name: 'f' });
    expect(value.tools).toEqual([{ name: 'f', inputSchema: { type: 'object', properties: {} } }]);
    expect(value.user).toBe('safe');
    expect(value.providerOptions).toEqual({ 'openai-responses': { user: 'legacy' } });
  });
});

describe('decodeOpenAIResponsesRequest: fields the gateway does not know', () => {
  it('keeps unknown top-level fields as sent in providerOptions, apart from the known ones, without a warning', () => {
    const { value, warnings } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: 'hi',
      brand_new_field: 1,
      nested_thing: { deep: [1, 'two', null] },
      store: false,
    });
    expect(value.providerOptions).toEqual({
      'openai-responses': { store: false, unknown_fields: { brand_new_field: 1, nested_thing: { deep: [1, 'two', null] } } },
    });
    expect(warnings).toEqual([]);
  });

  it('keeps a field named like a decoder marker inside unknown_fields, where it cannot pose as the marker', () => {
    const { value } = decodeOpenAIResponsesRequest({ model: 'm', input: 'hi', responses_only_items: ['web_search_call'] });
    expect(value.providerOptions).toEqual({
      'openai-responses': { unknown_fields: { responses_only_items: ['web_search_call'] } },
    });
  });

  it('keeps a field named __proto__ as a plain field, leaving the prototype alone', () => {
    const body = JSON.parse('{"model":"m","input":"hi","__proto__":{"polluted":true}}') as unknown;
    const unknown = decodeOpenAIResponsesRequest(body).value.providerOptions?.['openai-responses']?.unknown_fields;
    expect(Object.keys(unknown as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(unknown)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('still validates the known fields it needs next to unknown ones', () => {
    const error = refusal({ model: 'm', input: 'hi', brand_new_field: 1, max_output_tokens: 'many' });
    expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', 'max_output_tokens']);
  });
});

describe('decodeOpenAIResponsesRequest: Codex-style fields and tools', () => {
  it('reads prompt_cache_key into the IR and keeps client_metadata, include and store for the upstream', () => {
    const { value } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: 'x',
      client_metadata: { session: 'abc' },
      prompt_cache_key: 'thread-1',
      include: ['reasoning.encrypted_content'],
      store: false,
      text: { verbosity: 'low' },
    });
    expect(value.promptCacheKey).toBe('thread-1');
    expect(value.providerOptions).toEqual({
      'openai-responses': {
        client_metadata: { session: 'abc' },
        include: ['reasoning.encrypted_content'],
        store: false,
        text: { verbosity: 'low' },
      },
    });
  });

  it('turns the functions of a namespace tool into flat IR tools that remember their namespace', () => {
    const { value } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: [{ type: 'function_call', call_id: 'c1', name: 'find', namespace: 'crm', arguments: '{}' }],
      tools: [
        { type: 'function', name: 'f' },
        { type: 'namespace', name: 'crm', description: 'Customers', tools: [{ type: 'function', name: 'find', parameters: { type: 'object' } }] },
      ],
    });
    expect(value.tools).toEqual([
      { name: 'f', inputSchema: { type: 'object', properties: {} } },
      { name: 'crm__find', inputSchema: { type: 'object' }, namespace: { name: 'crm', tool: 'find', description: 'Customers' } },
    ]);
    expect(value.messages[0]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', callId: 'c1', name: 'crm__find', arguments: '{}' }],
    });
  });

  it('keeps built-in tools aside, exactly as sent, for a Responses upstream', () => {
    const { value } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: 'x',
      tools: [{ type: 'function', name: 'f' }, { type: 'web_search', search_context_size: 'low' }],
    });
    expect(value.tools).toEqual([{ name: 'f', inputSchema: { type: 'object', properties: {} } }]);
    expect(value.providerOptions).toEqual({
      'openai-responses': { responses_only_tools: [{ type: 'web_search', search_context_size: 'low' }] },
    });
  });

  it('lists replayed built-in tool items, which have no IR form, for a Responses upstream', () => {
    const { value } = decodeOpenAIResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'Search' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'q' } },
      ],
    });
    expect(value.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Search' }] }]);
    expect(value.providerOptions).toEqual({ 'openai-responses': { responses_only_items: ['web_search_call'] } });
  });

  it('refuses a flat function named like a namespaced one', () => {
    const error = refusal({
      model: 'm',
      input: 'x',
      tools: [
        { type: 'function', name: 'crm__find' },
        { type: 'namespace', name: 'crm', description: '', tools: [{ type: 'function', name: 'find' }] },
      ],
    });
    expect([error.status, error.param]).toEqual([400, 'tools']);
  });
});

describe("decodeOpenAIResponsesRequest: fields of the gateway's other endpoints", () => {
  // A gateway that also serves a made-up protocol, composed as its protocol registry composes it.
  const [foreignFields] = composeForeignFields([
    openAIResponsesDescriptor,
    {
      generationPath: '/v1/other',
      signatureFields: { turns: 'the conversation', cap: 'the output limit', halt: 'stop sequences', odd_knob: 'something new', prompt: 'the conversation' },
    },
  ]);
  const options: DecodeOptions = { foreignFields: foreignFields! };

  it.each([
    ['cap', '`cap` is a field of POST /v1/other, not of this endpoint (POST /v1/responses): the output limit is `max_output_tokens`. '],
    ['halt', '`halt` is a field of POST /v1/other, not of this endpoint (POST /v1/responses): the Responses API has no stop parameter. '],
    ['odd_knob', '`odd_knob` is a field of POST /v1/other, not of this endpoint (POST /v1/responses). '],
  ])('refuses %s next to `input`, naming where it belongs and what this endpoint takes instead', (field, message) => {
    const error = refusal({ model: 'm', input: 'x', [field]: 10 }, options);
    expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', field]);
    expect(error.message).toBe(`${message}Send the body to the endpoint it was written for, or rewrite it for this one.`);
  });

  it('points a body without `input` to the endpoint its fields belong to, before naming any one field', () => {
    const error = refusal({ model: 'm', cap: 100, turns: [] }, { ...options, mountPath: '/llm' });
    expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', 'turns']);
    expect(error.message).toBe(
      'This endpoint takes `input` (and `instructions`), not `turns`: the body looks like one for POST /llm/v1/other. Send it there, or rewrite it for this one.',
    );
  });

  it('keeps its own fields, whoever else takes them: a stored prompt is its own refusal', () => {
    expect(refusal({ model: 'm', input: 'x', prompt: { id: 'pmpt_1' } }, options)).toMatchObject({ code: 'UNSUPPORTED_PARAMETER', param: 'prompt' });
  });

  it('refuses nothing without the options', () => {
    expect(decodeOpenAIResponsesRequest({ model: 'm', input: 'x', cap: 1 }).value.providerOptions).toEqual({
      'openai-responses': { unknown_fields: { cap: 1 } },
    });
  });
});

describe('decodeOpenAIResponsesRequest: refusals', () => {
  it.each([
    [{ previous_response_id: 'resp_1' }, 'previous_response_id'],
    [{ conversation: 'conv_1' }, 'conversation'],
    [{ background: true }, 'background'],
    [{ prompt: { id: 'pmpt_1' } }, 'prompt'],
    [{ input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input.0'],
    [{ input: [{ role: 'user', content: 'a' }, { id: 'msg_1' }] }, 'input.1'],
    [{ input: [{ type: 'program_output', id: 'po_1' }] }, 'input.0.type'],
    [
      { input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'file-1', detail: 'auto' }] }] },
      'input.0.content.0.file_id',
    ],
    [
      { input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'file-1' }] }] },
      'input.0.content.0.file_id',
    ],
    [
      {
        input: [
          { role: 'system', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] },
        ],
      },
      'input.0.content.0',
    ],
  ])('refuses what the gateway cannot serve with UNSUPPORTED_PARAMETER (%#)', (fields, param) => {
    const error = refusal({ model: 'm', input: 'x', ...fields });
    expect([error.status, error.code, error.param]).toEqual([400, 'UNSUPPORTED_PARAMETER', param]);
  });

  it.each([
    [{ input: 'x' }, 'model'],
    [{ model: 'm' }, 'input'],
    [{ model: 'm', input: 5 }, 'input'],
    [{ model: 'm', input: 'x', max_output_tokens: 8 }, 'max_output_tokens'],
    [{ model: 'm', input: 'x', max_output_tokens: 16.5 }, 'max_output_tokens'],
    [{ model: 'm', input: 'x', temperature: 2.5 }, 'temperature'],
    [{ model: 'm', input: 'x', tool_choice: 'any' }, 'tool_choice'],
    [{ model: 'm', input: 'x', tool_choice: { type: 'function' } }, 'tool_choice.name'],
    [{ model: 'm', input: 'x', tools: [{ type: 'function' }] }, 'tools.0.name'],
    [
      { model: 'm', input: [{ role: 'user', content: [{ type: 'output_text', text: 'x' }] }] },
      'input.0.content.0.type',
    ],
    [
      {
        model: 'm',
        input: [
          { role: 'assistant', content: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] },
        ],
      },
      'input.0.content.0.type',
    ],
    [{ model: 'm', input: [{ role: 'user', content: [{ type: 'input_audio' }] }] }, 'input.0.content.0.type'],
    [
      {
        model: 'm',
        input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png,raw' }] }],
      },
      'input.0.content.0.image_url',
    ],
    [{ model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input.0.call_id'],
    [{ model: 'm', input: [{ type: 'function_call_output', call_id: 'a', output: 3 }] }, 'input.0.output'],
    [{ model: 'm', input: ['text'] }, 'input.0'],
    [{ model: 'm', input: 'x', metadata: { key: 1 } }, 'metadata.key'],
  ])('names the offending field of an invalid body (%#)', (body, param) => {
    const error = refusal(body);
    expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', param]);
  });

  it('refuses a body that is not an object', () => {
    expect(refusal('hello').code).toBe('INVALID_REQUEST');
    expect(refusal([]).code).toBe('INVALID_REQUEST');
  });
});

describe('decodeOpenAIResponsesRequest: what a refusal repeats of the client', () => {
  const PROMPT = 'Summarise the attached medical records for me';

  it('quotes an input item type that is a type name', () => {
    expect(refusal({ model: 'm', input: [{ type: 'program_output' }] }).message).toBe(
      "Unsupported parameter 'input.0.type': input items of type 'program_output' are not supported by this gateway (only messages, function_call, function_call_output and reasoning).",
    );
  });

  it('describes an input item type that is text, without repeating it', () => {
    const error = refusal({ model: 'm', input: [{ type: PROMPT }] });
    expect([error.code, error.param]).toEqual(['UNSUPPORTED_PARAMETER', 'input.0.type']);
    expect(error.message).toBe(
      "Unsupported parameter 'input.0.type': input items of type (not a type name) are not supported by this gateway (only messages, function_call, function_call_output and reasoning).",
    );
  });

  it('quotes a tool name declared twice, cut like any quoted value', () => {
    const name = `f${'x'.repeat(300)}`;
    const tools = [
      { type: 'function', name },
      { type: 'function', name },
    ];
    expect(refusal({ model: 'm', input: 'x', tools }).message).toBe(
      `Invalid request: tools: Tool names must be unique; '${name.slice(0, 200)}…' (+101 chars) is declared twice (namespaced functions are also known as 'namespace__name').`,
    );
  });
});
