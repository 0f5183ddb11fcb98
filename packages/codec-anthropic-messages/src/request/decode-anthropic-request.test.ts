import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { composeForeignFields, type DecodeOptions } from '@signalbox/core';
import { gatewayErrorOf } from '@signalbox/core/testing';
import { anthropicMessagesDescriptor } from '../anthropic-messages-descriptor';
import { decodeAnthropicRequest } from './decode-anthropic-request';

// Wire-shaped synthetic request bodies; provenance in __fixtures__/README.md.
function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(__dirname, '../__fixtures__', name), 'utf8')) as Record<
    string,
    unknown
  >;
}

const minimal = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

const refusal = (body: unknown, options?: DecodeOptions) => gatewayErrorOf(() => decodeAnthropicRequest(body, options));

describe('decodeAnthropicRequest', () => {
  it('decodes a minimal body', () => {
    expect(decodeAnthropicRequest(minimal)).toEqual({
      value: {
        model: 'claude-test',
        system: [],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        stream: false,
        maxOutputTokens: 100,
      },
      warnings: [],
    });
  });

  it('decodes a tool loop with media, thinking and provider-only fields', () => {
    const { value, warnings } = decodeAnthropicRequest(fixture('tool-loop.1.request.json'));
    expect(value).toMatchSnapshot();
    expect(warnings).toEqual([]);
    expect(value.messages.map(message => message.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(value.messages[2]).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          callId: 'toolu_01SyntheticOslo',
          content: [{ type: 'text', text: '12 °C, light rain' }],
        },
      ],
    });
    expect(value.messages[1]!.content[2]).toEqual({
      type: 'tool-call',
      callId: 'toolu_01SyntheticOslo',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
    });
    expect(value).toMatchObject({
      parallelToolCalls: false,
      toolChoice: { type: 'auto' },
      reasoning: { budgetTokens: 1024 },
      user: 'user-hash-1234',
      stream: true,
      providerOptions: { 'anthropic-messages': { top_k: 40, service_tier: 'auto' } },
    });
  });

  it('keeps thinking signatures and redacted data exactly', () => {
    const { value } = decodeAnthropicRequest({
      ...minimal,
      messages: [
        { role: 'user', content: 'Q' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hmm', signature: 'EqQBCkYIARgC+/=' },
            { type: 'redacted_thinking', data: 'opaque+/=' },
            { type: 'text', text: 'A' },
          ],
        },
      ],
    });
    expect(value.messages[1]!.content).toEqual([
      { type: 'reasoning', text: 'hmm', signature: 'EqQBCkYIARgC+/=' },
      { type: 'reasoning', text: '', redactedData: 'opaque+/=' },
      { type: 'text', text: 'A' },
    ]);
  });

  it('maps adaptive thinking, effort and a JSON schema format', () => {
    const { value } = decodeAnthropicRequest(fixture('adaptive-json.1.request.json'));
    expect(value.reasoning).toEqual({ effort: 'high' });
    expect(value.system).toEqual([{ type: 'text', text: 'Answer in JSON.' }]);
    expect(value.responseFormat).toMatchObject({ type: 'json-schema', schema: { type: 'object' } });
  });

  it('accepts a thinking display value added under a beta flag and keeps the client’s thinking for a Messages upstream', () => {
    // Claude Code 2.1 sends `display: "updates"` with the `thinking-display-updates-2026-08-18` beta.
    const thinking = { type: 'adaptive', display: 'updates' };
    const { value } = decodeAnthropicRequest({ ...minimal, thinking });
    expect(value.reasoning).toEqual({ effort: 'medium' });
    expect(value.providerOptions?.['anthropic-messages']).toEqual({ thinking });
  });

  it.each([
    [{ type: 'adaptive' }, undefined, { effort: 'medium' }],
    [{ type: 'disabled' }, undefined, { effort: 'none' }],
    [undefined, 'low', { effort: 'low' }],
  ])('maps thinking %j with effort %j to %j', (thinking, effort, reasoning) => {
    const body = { ...minimal, ...(thinking && { thinking }), ...(effort && { output_config: { effort } }) };
    expect(decodeAnthropicRequest(body).value.reasoning).toEqual(reasoning);
  });

  it('maps tool_choice values', () => {
    const tools = [{ name: 'f', input_schema: { type: 'object' } }];
    const choice = (tool_choice: object) => decodeAnthropicRequest({ ...minimal, tools, tool_choice }).value;
    expect(choice({ type: 'any' })).toMatchObject({ toolChoice: { type: 'required' } });
    expect(choice({ type: 'tool', name: 'f' })).toMatchObject({ toolChoice: { type: 'tool', name: 'f' } });
    expect(choice({ type: 'none' })).toMatchObject({ toolChoice: { type: 'none' } });
    expect(choice({ type: 'auto' }).parallelToolCalls).toBeUndefined();
  });

  it('puts a user turn with only tool results into one IR tool message', () => {
    const { value } = decodeAnthropicRequest({
      ...minimal,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              is_error: true,
              content: [{ type: 'text', text: 'boom' }],
            },
          ],
        },
      ],
    });
    expect(value.messages.slice(1)).toEqual([
      { role: 'assistant', content: [{ type: 'tool-call', callId: 'toolu_1', name: 'f', arguments: '{}' }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            callId: 'toolu_1',
            isError: true,
            content: [{ type: 'text', text: 'boom' }],
          },
        ],
      },
    ]);
  });

  it('warns about tool fields it drops', () => {
    const { warnings } = decodeAnthropicRequest({
      ...minimal,
      tools: [{ name: 'f', input_schema: { type: 'object' }, defer_loading: true }],
    });
    expect(warnings).toEqual([{ type: 'unsupported-field', field: 'tools.0.defer_loading' }]);
  });

  it('keeps a system turn inside messages in its place as an IR system message', () => {
    const { value } = decodeAnthropicRequest({
      ...minimal,
      system: 'Be brief.',
      messages: [
        { role: 'system', content: 'You are in a git repository.' },
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'system', content: [{ type: 'text', text: 'Now answer in French.' }] },
        { role: 'user', content: 'c' },
      ],
    });
    expect(value.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(value.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'You are in a git repository.' }] },
      { role: 'user', content: [{ type: 'text', text: 'a' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
      { role: 'system', content: [{ type: 'text', text: 'Now answer in French.' }] },
      { role: 'user', content: [{ type: 'text', text: 'c' }] },
    ]);
  });

  it('carries the beta fields of the Messages API as options for a Messages upstream', () => {
    const beta = {
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      compaction: { trigger: { type: 'input_tokens', value: 100000 } },
      fallbacks: 'default',
      billing_policy: { type: 'billing_policy', billed: 'self' },
    };
    const { value, warnings } = decodeAnthropicRequest({ ...minimal, ...beta });
    expect(value.providerOptions).toEqual({ 'anthropic-messages': beta });
    expect(warnings).toEqual([]);
  });

  it('keeps top-level fields it does not know as sent, apart from the known ones, without a warning', () => {
    const { value, warnings } = decodeAnthropicRequest({ ...minimal, brand_new_field: 1, speed: 'fast', nested_thing: { a: [null] } });
    expect(value.providerOptions).toEqual({
      'anthropic-messages': { speed: 'fast', unknown_fields: { brand_new_field: 1, nested_thing: { a: [null] } } },
    });
    expect(warnings).toEqual([]);
  });

  it('still validates the known fields it needs next to unknown ones', () => {
    const error = refusal({ ...minimal, brand_new_field: 1, max_tokens: -1 });
    expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', 'max_tokens']);
  });

  describe('refusals', () => {
    it.each<[string, unknown, string, string, RegExp]>([
      [
        'a missing max_tokens',
        { model: 'm', messages: minimal.messages },
        'INVALID_REQUEST',
        'max_tokens',
        /max_tokens/,
      ],
      ['max_tokens of 0', { ...minimal, max_tokens: 0 }, 'INVALID_REQUEST', 'max_tokens', /max_tokens/],
      [
        'an image inside a system turn',
        {
          ...minimal,
          messages: [
            { role: 'user', content: 'a' },
            {
              role: 'system',
              content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } }],
            },
          ],
        },
        'INVALID_REQUEST',
        'messages.1.content.0.type',
        /text/,
      ],
      [
        'a context_management that is not an object',
        { ...minimal, context_management: 'clear' },
        'INVALID_REQUEST',
        'context_management',
        /object/,
      ],
      [
        'a temperature above 1',
        { ...minimal, temperature: 1.5 },
        'INVALID_REQUEST',
        'temperature',
        /temperature/,
      ],
      [
        'a server tool',
        {
          ...minimal,
          tools: [
            { name: 'f', input_schema: { type: 'object' } },
            { type: 'web_search_20250305', name: 'web_search' },
          ],
        },
        'UNSUPPORTED_PARAMETER',
        'tools.1.type',
        /web_search_20250305/,
      ],
      [
        'an unknown content block type',
        { ...minimal, messages: [{ role: 'user', content: [{ type: 'hologram' }] }] },
        'INVALID_REQUEST',
        'messages.0.content.0.type',
        /Unknown content block type 'hologram'/,
      ],
      [
        'an empty text block',
        { ...minimal, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] },
        'INVALID_REQUEST',
        'messages.0.content.0.text',
        /non-empty/,
      ],
      [
        'an image media type Anthropic does not accept',
        {
          ...minimal,
          messages: [
            {
              role: 'user',
              content: [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'Qk0=' } }],
            },
          ],
        },
        'INVALID_REQUEST',
        'messages.0.content.0.source.media_type',
        /media_type/,
      ],
      [
        'a Files API image source',
        {
          ...minimal,
          messages: [
            { role: 'user', content: [{ type: 'image', source: { type: 'file', file_id: 'file_1' } }] },
          ],
        },
        'UNSUPPORTED_PARAMETER',
        'messages.0.content.0.source.type',
        /file/,
      ],
      [
        'a server-tool block',
        {
          ...minimal,
          messages: [
            {
              role: 'assistant',
              content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }],
            },
          ],
        },
        'UNSUPPORTED_PARAMETER',
        'messages.0.content.0.type',
        /server_tool_use/,
      ],
      [
        'a tool_result in an assistant turn',
        {
          ...minimal,
          messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }] }],
        },
        'INVALID_REQUEST',
        'messages.0.content.0.type',
        /user messages/,
      ],
      [
        'a tool_use in a user turn',
        {
          ...minimal,
          messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] }],
        },
        'INVALID_REQUEST',
        'messages.0.content.0.type',
        /assistant messages/,
      ],
      [
        'a thinking budget not below max_tokens',
        { ...minimal, max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 2000 } },
        'INVALID_REQUEST',
        'thinking.budget_tokens',
        /max_tokens/,
      ],
      [
        'unknown metadata keys',
        { ...minimal, metadata: { user_id: 'u', team: 'x' } },
        'INVALID_REQUEST',
        'metadata',
        /team/,
      ],
    ])('refuses %s', (_name, body, code, param, message) => {
      const error = refusal(body);
      expect(error.code).toBe(code);
      expect(error.status).toBe(400);
      expect(error.param).toBe(param);
      expect(error.message).toMatch(message);
    });

    it('names max_tokens in the message of a missing max_tokens', () => {
      expect(refusal({ model: 'm', messages: minimal.messages }).message).toBe(
        'Invalid request: max_tokens: Field required.',
      );
    });

    it('refuses a body that is not an object', () => {
      expect(refusal('hello').code).toBe('INVALID_REQUEST');
    });
  });

  describe('names a type the client sent only when it is a type name', () => {
    const PROMPT = 'Summarise the attached medical records for me';
    const blocks = (type: unknown) => ({ ...minimal, messages: [{ role: 'user', content: [{ type, text: 'x' }] }] });

    it('quotes an unknown block type', () => {
      expect(refusal(blocks('hologram')).message).toBe(
        "Invalid request: messages.0.content.0.type: Unknown content block type 'hologram'.",
      );
    });

    it.each([
      ['text', PROMPT],
      ['text in an array', [PROMPT]],
      ['text in an object', { text: PROMPT }],
    ])('describes a block type that is %s, without repeating it', (_label, type) => {
      const error = refusal(blocks(type));
      expect([error.code, error.param]).toEqual(['INVALID_REQUEST', 'messages.0.content.0.type']);
      expect(error.message).toBe('Invalid request: messages.0.content.0.type: Unknown content block type (not a type name).');
      expect(JSON.stringify(error.issues)).not.toContain('medical');
    });

    it('says a block without a type lacks one', () => {
      expect(refusal(blocks(undefined)).message).toBe('Invalid request: messages.0.content.0.type: Field required.');
    });

    it('quotes a server tool type and describes text put there instead', () => {
      const tools = (type: string) => ({ ...minimal, tools: [{ type, name: 'web_search' }] });
      expect(refusal(tools('web_search_20250305')).message).toBe(
        "Unsupported parameter 'tools.0.type': server tool 'web_search_20250305' is not supported by this gateway; only client tools (name, input_schema) are.",
      );
      const described = refusal(tools(PROMPT));
      expect([described.code, described.param]).toEqual(['UNSUPPORTED_PARAMETER', 'tools.0.type']);
      expect(described.message).toBe(
        "Unsupported parameter 'tools.0.type': server tool (not a type name) is not supported by this gateway; only client tools (name, input_schema) are.",
      );
    });
  });

  describe("fields of the gateway's other endpoints", () => {
    // A gateway that also serves a made-up protocol, composed as its protocol registry composes it.
    const [foreignFields] = composeForeignFields([
      anthropicMessagesDescriptor,
      {
        generationPath: '/v1/other',
        signatureFields: {
          prompt: 'the conversation',
          choices: 'the number of answers',
          odd_knob: 'something no other protocol has',
          metadata: 'labels',
          thinking: 'reasoning',
        },
      },
    ]);
    const options: DecodeOptions = { foreignFields: foreignFields! };

    it.each([
      ['prompt', 'the conversation goes in `messages`.'],
      ['choices', 'Messages returns one answer per request.'],
    ])('refuses %s, naming the endpoint that takes it and what Messages takes instead', (field, instead) => {
      const error = refusal({ ...minimal, [field]: 2 }, options);
      expect([error.status, error.code, error.param]).toEqual([400, 'INVALID_REQUEST', field]);
      expect(error.message).toBe(
        `\`${field}\` is a field of POST /v1/other, not of this endpoint (POST /v1/messages): ${instead} ` +
          'Send the body to the endpoint it was written for, or rewrite it for this one.',
      );
    });

    it('names only where a field belongs when Messages has no word for what it carries', () => {
      expect(refusal({ ...minimal, odd_knob: 1 }, options).message).toMatch(/^`odd_knob` is a field of POST \/v1\/other, not of this endpoint \(POST \/v1\/messages\)\. Send/);
    });

    it('points a body without messages to the endpoint its fields belong to, before naming any one field', () => {
      const error = refusal({ model: 'm', prompt: 'hi' }, options);
      expect([error.code, error.param]).toEqual(['INVALID_REQUEST', 'prompt']);
      expect(error.message).toBe(
        "This endpoint (POST /v1/messages) takes an Anthropic Messages body with 'messages' and 'max_tokens'. Bodies with 'prompt' go to POST /v1/other.",
      );
    });

    it('names the paths under the mount path the request came in on', () => {
      expect(refusal({ ...minimal, prompt: 'hi' }, { ...options, mountPath: '/llm' }).message).toMatch(
        /^`prompt` is a field of POST \/llm\/v1\/other, not of this endpoint \(POST \/llm\/v1\/messages\)/,
      );
    });

    it('keeps its own fields, whoever else takes them, and refuses nothing without the options', () => {
      expect(decodeAnthropicRequest({ ...minimal, metadata: { user_id: 'u' } }, options).value.user).toBe('u');
      expect(decodeAnthropicRequest({ ...minimal, prompt: 'hi' }).value.providerOptions).toEqual({
        'anthropic-messages': { unknown_fields: { prompt: 'hi' } },
      });
    });
  });
});
