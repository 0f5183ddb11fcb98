import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerationRequest } from '@signalbox/core';
import { gatewayErrorOf } from '@signalbox/core/testing';
import { decodeAnthropicRequest } from './decode-anthropic-request';
import { encodeAnthropicRequest } from './encode-anthropic-request';

const base: GenerationRequest = {
  model: 'client-model',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  stream: false,
};

function encode(overrides: Partial<GenerationRequest>) {
  return encodeAnthropicRequest({ ...base, ...overrides }, 'upstream-model');
}

/** An OpenAI-shaped conversation: system messages mid-way, tool results, empty and unsigned parts. */
const translated: GenerationRequest = {
  model: 'client-model',
  system: [{ type: 'text', text: 'Be brief.' }],
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'Use metric units.' }] },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Weather in Oslo and Malmö?' },
        { type: 'image', source: { kind: 'url', url: 'data:image/png;base64,iVBORw0KGgo=' } },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'reasoning', text: 'OpenAI summary', encryptedContent: 'blob' },
        { type: 'text', text: '' },
        { type: 'tool-call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'tool-call', callId: 'call_2', name: 'get_weather', arguments: '' },
      ],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', callId: 'call_1', content: [{ type: 'text', text: '12 °C' }] }],
    },
    {
      role: 'tool',
      content: [
        { type: 'tool-result', callId: 'call_2', content: [{ type: 'text', text: '15 °C' }], isError: false },
      ],
    },
    { role: 'user', content: [{ type: 'text', text: 'Thanks!' }] },
    { role: 'assistant', content: [{ type: 'text', text: '' }] },
    { role: 'system', content: [{ type: 'text', text: 'Stay polite.' }] },
  ],
  stream: true,
  temperature: 1.6,
  topP: 0.9,
  stopSequences: ['END'],
  tools: [
    {
      name: 'get_weather',
      description: 'Weather',
      inputSchema: { properties: { city: { type: 'string' } } },
    },
  ],
  toolChoice: { type: 'auto' },
  parallelToolCalls: false,
  reasoning: { effort: 'minimal' },
  responseFormat: { type: 'json-schema', name: 'weather', schema: { type: 'object' }, strict: true },
  metadata: { trace: 'abc' },
  user: 'user-hash',
};

describe('encodeAnthropicRequest', () => {
  it('encodes a translated conversation (golden)', () => {
    const { value, warnings } = encodeAnthropicRequest(translated, 'claude-upstream');
    expect(value).toMatchSnapshot();
    expect(warnings.map(warning => warning.field)).toEqual(['messages', 'temperature', 'topP', 'metadata']);
  });

  it('hoists system messages, opens the user turn with tool results and merges same-role turns', () => {
    const { value } = encodeAnthropicRequest(translated, 'claude-upstream');
    expect(value.system).toEqual([
      { type: 'text', text: 'Be brief.' },
      { type: 'text', text: 'Use metric units.' },
      { type: 'text', text: 'Stay polite.' },
    ]);
    const messages = value.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(messages.map(message => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[2]!.content.map(block => block.type)).toEqual(['tool_result', 'tool_result', 'text']);
    expect(messages[1]!.content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } },
      { type: 'tool_use', id: 'call_2', name: 'get_weather', input: {} },
    ]);
  });

  it('puts tool results first even when the IR placed a user message before them', () => {
    const { value } = encode({
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', callId: 'c', name: 'f', arguments: '{}' }] },
        { role: 'user', content: [{ type: 'text', text: 'also' }] },
        { role: 'tool', content: [{ type: 'tool-result', callId: 'c', content: [] }] },
      ],
    });
    expect(value.messages).toEqual([
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c', name: 'f', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c' },
          { type: 'text', text: 'also' },
        ],
      },
    ]);
  });

  it('round-trips a Messages request through the IR (same-protocol fidelity)', () => {
    const body = JSON.parse(
      readFileSync(join(__dirname, '../__fixtures__/tool-loop.1.request.json'), 'utf8'),
    ) as Record<string, unknown>;
    const { value, warnings } = encodeAnthropicRequest(decodeAnthropicRequest(body).value, 'claude-upstream');
    expect(warnings).toEqual([]);
    expect(value).toMatchSnapshot();
    expect(value).toMatchObject({
      model: 'claude-upstream',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      top_k: 40,
      service_tier: 'auto',
      metadata: { user_id: 'user-hash-1234' },
      stream: true,
    });
  });

  it('defaults max_tokens to 4096 and sends only what is set', () => {
    expect(encode({}).value).toEqual({
      model: 'upstream-model',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it.each<[GenerationRequest['reasoning'], Partial<GenerationRequest>, Record<string, unknown>]>([
    [
      { effort: 'high' },
      {},
      { thinking: { type: 'adaptive' }, output_config: { effort: 'high' }, max_tokens: 4096 },
    ],
    [{ effort: 'none' }, {}, { thinking: { type: 'disabled' } }],
    [{ budgetTokens: 2000 }, {}, { thinking: { type: 'enabled', budget_tokens: 2000 }, max_tokens: 4096 }],
    [{ budgetTokens: 8000 }, {}, { thinking: { type: 'enabled', budget_tokens: 8000 }, max_tokens: 12096 }],
    [
      { budgetTokens: 8000 },
      { maxOutputTokens: 3000 },
      { thinking: { type: 'enabled', budget_tokens: 2999 }, max_tokens: 3000 },
    ],
    [
      { budgetTokens: 500 },
      { maxOutputTokens: 3000 },
      { thinking: { type: 'enabled', budget_tokens: 1024 }, max_tokens: 3000 },
    ],
  ])('encodes reasoning %j (with %j) as %j', (reasoning, overrides, expected) => {
    expect(encode({ reasoning, ...overrides }).value).toMatchObject(expected);
  });

  it('does not enable thinking when a tool is forced (Anthropic refuses the combination)', () => {
    const { value, warnings } = encode({
      reasoning: { effort: 'high' },
      tools: [{ name: 'f', inputSchema: { type: 'object' } }],
      toolChoice: { type: 'required' },
    });
    expect(value.thinking).toBeUndefined();
    expect(value.tool_choice).toEqual({ type: 'any' });
    expect(warnings).toEqual([expect.objectContaining({ field: 'reasoning' })]);
  });

  it('clamps temperature to 1 and drops sampling values Anthropic refuses with thinking', () => {
    expect(encode({ temperature: 1.5, topP: 0.5 }).value).toMatchObject({ temperature: 1, top_p: 0.5 });
    const thinking = encode({ temperature: 0.2, topP: 0.5, reasoning: { effort: 'low' } });
    expect(thinking.value.temperature).toBeUndefined();
    expect(thinking.value.top_p).toBeUndefined();
    expect(thinking.warnings.map(warning => warning.field)).toEqual(['temperature', 'topP']);
    expect(encode({ temperature: 1, topP: 0.97, reasoning: { budgetTokens: 1024 } }).value).toMatchObject({
      temperature: 1,
      top_p: 0.97,
    });
  });

  it('leaves out a Messages client’s own thinking (kept for its display) when a tool loop lacks signed thinking', () => {
    const toolLoop = {
      reasoning: { effort: 'high' as const },
      messages: [
        { role: 'user' as const, content: [{ type: 'text' as const, text: 'Read a.txt' }] },
        { role: 'assistant' as const, content: [{ type: 'tool-call' as const, callId: 'toolu_1', name: 'read', arguments: '{}' }] },
        { role: 'tool' as const, content: [{ type: 'tool-result' as const, callId: 'toolu_1', content: [{ type: 'text' as const, text: 'x' }] }] },
      ],
      providerOptions: { 'anthropic-messages': { thinking: { type: 'adaptive', display: 'updates' } } },
    };
    const { value, warnings } = encode(toolLoop);
    expect(value.thinking).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ field: 'reasoning' })]);
    // With its signed thinking in place, the client's own thinking goes as it sent it.
    const signed = toolLoop.messages.map(message =>
      message.role === 'assistant' ? { ...message, content: [{ type: 'reasoning' as const, text: 'Plan.', signature: 'sig' }, ...message.content] } : message,
    );
    expect(encode({ ...toolLoop, messages: signed }).value.thinking).toEqual({ type: 'adaptive', display: 'updates' });
  });

  it('does not enable thinking when max_tokens leaves no room for the minimum budget', () => {
    const { value, warnings } = encode({ reasoning: { budgetTokens: 2000 }, maxOutputTokens: 1000 });
    expect(value.thinking).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ field: 'reasoning.budgetTokens' })]);
  });

  it.each<[Partial<GenerationRequest>, unknown]>([
    [{ toolChoice: { type: 'tool', name: 'f' } }, { type: 'tool', name: 'f' }],
    [{ toolChoice: { type: 'none' }, parallelToolCalls: false }, { type: 'none' }],
    [{ parallelToolCalls: false }, { type: 'auto', disable_parallel_tool_use: true }],
    [
      { toolChoice: { type: 'required' }, parallelToolCalls: false },
      { type: 'any', disable_parallel_tool_use: true },
    ],
  ])('encodes tool choice %j as %j', (overrides, expected) => {
    expect(
      encode({ tools: [{ name: 'f', inputSchema: { type: 'object' } }], ...overrides }).value.tool_choice,
    ).toEqual(expected);
  });

  it('replays signed and redacted reasoning and drops unsigned reasoning with a warning', () => {
    const { value, warnings } = encode({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'signed', signature: 'sig' },
            { type: 'reasoning', text: '', redactedData: 'opaque' },
            { type: 'reasoning', text: 'unsigned' },
            { type: 'text', text: 'A' },
          ],
        },
      ],
    });
    expect((value.messages as Array<{ content: unknown }>)[1]!.content).toEqual([
      { type: 'thinking', thinking: 'signed', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'A' },
    ]);
    expect(warnings).toEqual([expect.objectContaining({ type: 'lossy-conversion', field: 'messages' })]);
  });

  it('encodes documents: PDF as base64, text as a plain-text source, URLs as they are', () => {
    const { value } = encode({
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'file',
              source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' },
              filename: 'a.pdf',
            },
            {
              type: 'file',
              source: {
                kind: 'base64',
                mediaType: 'text/markdown',
                data: Buffer.from('# Title').toString('base64'),
              },
            },
            { type: 'file', source: { kind: 'url', url: 'https://example.com/a.pdf' } },
            { type: 'image', source: { kind: 'base64', mediaType: 'IMAGE/JPEG', data: '/9j/' } },
          ],
        },
      ],
    });
    expect((value.messages as Array<{ content: unknown }>)[0]!.content).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
        title: 'a.pdf',
      },
      { type: 'document', source: { type: 'text', media_type: 'text/plain', data: '# Title' } },
      { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/' } },
    ]);
  });

  describe('refusals', () => {
    it.each<[string, Partial<GenerationRequest>, string, string]>([
      [
        'tool-call arguments that are not JSON',
        {
          messages: [
            {
              role: 'assistant',
              content: [
                { type: 'text', text: 'x' },
                { type: 'tool-call', callId: 'c', name: 'f', arguments: '{"a":' },
              ],
            },
          ],
        },
        'INVALID_REQUEST',
        'messages.0.content.1.arguments',
      ],
      [
        'tool-call arguments that are not an object',
        {
          messages: [
            { role: 'assistant', content: [{ type: 'tool-call', callId: 'c', name: 'f', arguments: '[1]' }] },
          ],
        },
        'INVALID_REQUEST',
        'messages.0.content.0.arguments',
      ],
      [
        'an image type Anthropic does not accept',
        {
          messages: [
            {
              role: 'user',
              content: [{ type: 'image', source: { kind: 'url', url: 'data:image/bmp;base64,Qk0=' } }],
            },
          ],
        },
        'UNSUPPORTED_PARAMETER',
        'messages.0.content.0.source',
      ],
      [
        'a file type Anthropic does not accept',
        {
          messages: [
            {
              role: 'user',
              content: [
                { type: 'file', source: { kind: 'base64', mediaType: 'application/zip', data: 'UEs=' } },
              ],
            },
          ],
        },
        'UNSUPPORTED_PARAMETER',
        'messages.0.content.0.source',
      ],
      [
        'JSON object mode',
        { responseFormat: { type: 'json-object' } },
        'UNSUPPORTED_PARAMETER',
        'responseFormat',
      ],
      [
        'a non-object tool schema',
        { tools: [{ name: 'f', inputSchema: { type: 'array' } }] },
        'UNSUPPORTED_PARAMETER',
        'tools.0.inputSchema',
      ],
    ])('refuses %s', (_name, overrides, code, param) => {
      const error = gatewayErrorOf(() => encode(overrides));
      expect(error.code).toBe(code);
      expect(error.param).toBe(param);
      expect(error.message).toContain(param);
    });
  });
});
