import { readFileSync } from 'node:fs';
import type { GenerationRequest } from '@signalbox/core';
import { decodeOpenAIResponsesRequest } from './decode-openai-responses-request';
import { encodeOpenAIResponsesRequest } from './encode-openai-responses-request';

// Wire-shaped synthetic request; provenance in __fixtures__/README.md.
const agentTurn: unknown = JSON.parse(
  readFileSync(`${__dirname}/../__fixtures__/agent-turn.1.request.json`, 'utf8'),
);

const base: GenerationRequest = {
  model: 'route-gpt',
  system: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
  stream: false,
};

describe('encodeOpenAIResponsesRequest', () => {
  it('re-encodes a decoded agent turn (golden)', () => {
    const { value, warnings } = encodeOpenAIResponsesRequest(
      decodeOpenAIResponsesRequest(agentTurn).value,
      'gpt-6-2026-01-01',
    );
    expect(warnings).toEqual([]);
    expect(value).toMatchSnapshot();
    expect(value).toMatchObject({
      model: 'gpt-6-2026-01-01',
      instructions: 'Be terse.',
      stream: true,
      store: false,
      safety_identifier: 'user-hash-1',
      include: ['reasoning.encrypted_content'],
      text: { format: { type: 'text' }, verbosity: 'low' },
      reasoning: { effort: 'low', summary: 'auto' },
    });
  });

  it('sends only what the IR set', () => {
    expect(encodeOpenAIResponsesRequest(base, 'gpt-6')).toEqual({
      value: {
        model: 'gpt-6',
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }],
        stream: false,
        store: false,
      },
      warnings: [],
    });
  });

  it('sends the IR prompt cache key (a Chat client’s, or the gateway’s own) as prompt_cache_key', () => {
    const { value, warnings } = encodeOpenAIResponsesRequest({ ...base, promptCacheKey: 'conv-1' }, 'gpt-6');
    expect(value.prompt_cache_key).toBe('conv-1');
    expect(warnings).toEqual([]);
  });

  it('joins system texts into instructions and keeps system messages in place as developer items', () => {
    const { value } = encodeOpenAIResponsesRequest(
      {
        ...base,
        system: [
          { type: 'text', text: 'A' },
          { type: 'text', text: 'B' },
        ],
        messages: [...base.messages, { role: 'system', content: [{ type: 'text', text: 'Mid' }] }],
      },
      'gpt-6',
    );
    expect(value.instructions).toBe('A\n\nB');
    expect(value.input).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Mid' }] },
    ]);
  });

  it('sends assistant history as output_text/refusal parts, tool calls and encrypted reasoning as items', () => {
    const { value, warnings } = encodeOpenAIResponsesRequest(
      {
        ...base,
        messages: [
          ...base.messages,
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'unsigned thought' },
              { type: 'reasoning', text: 'Plan.', encryptedContent: 'blob' },
              { type: 'text', text: 'Sure.' },
              { type: 'refusal', text: 'Not that part.' },
              { type: 'tool-call', callId: 'call_1', name: 'f', arguments: '' },
              { type: 'text', text: 'After.' },
            ],
          },
        ],
      },
      'gpt-6',
    );
    expect((value.input as unknown[]).slice(1)).toEqual([
      { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Plan.' }], encrypted_content: 'blob' },
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Sure.', annotations: [] },
          { type: 'refusal', refusal: 'Not that part.' },
        ],
      },
      { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'After.', annotations: [] }],
      },
    ]);
    expect(JSON.stringify(value.input)).not.toMatch(/"role":"assistant","content":\[\{"type":"input_text"/);
    expect(warnings).toEqual([
      expect.objectContaining({ type: 'lossy-conversion', field: 'messages.1.content.0' }),
    ]);
  });

  it('sends tool results as function_call_output: text joined, media as parts, error flag lost with a warning', () => {
    const { value, warnings } = encodeOpenAIResponsesRequest(
      {
        ...base,
        messages: [
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                callId: 'a',
                content: [
                  { type: 'text', text: 'line 1' },
                  { type: 'text', text: 'line 2' },
                ],
                isError: true,
              },
              {
                type: 'tool-result',
                callId: 'b',
                content: [
                  { type: 'text', text: 'see' },
                  { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } },
                ],
              },
            ],
          },
        ],
      },
      'gpt-6',
    );
    expect(value.input).toEqual([
      { type: 'function_call_output', call_id: 'a', output: 'line 1\nline 2' },
      {
        type: 'function_call_output',
        call_id: 'b',
        output: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'auto' },
        ],
      },
    ]);
    expect(warnings).toEqual([expect.objectContaining({ field: 'messages.0.content.0.isError' })]);
  });

  it('encodes user media: image URLs, inline files and plain-text documents', () => {
    const { value } = encodeOpenAIResponsesRequest(
      {
        ...base,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' }, detail: 'high' },
              { type: 'file', source: { kind: 'url', url: 'https://example.com/a.pdf' } },
              { type: 'file', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' } },
              {
                type: 'file',
                source: { kind: 'text', mediaType: 'text/plain', data: 'hello' },
                filename: 'hello.txt',
              },
            ],
          },
        ],
      },
      'gpt-6',
    );
    expect((value.input as Array<{ content: unknown }>)[0]!.content).toEqual([
      { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'high' },
      { type: 'input_file', file_url: 'https://example.com/a.pdf' },
      { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'document.pdf' },
      { type: 'input_file', file_data: 'data:text/plain;base64,aGVsbG8=', filename: 'hello.txt' },
    ]);
  });

  it('raises max_output_tokens to 16, with a warning', () => {
    const { value, warnings } = encodeOpenAIResponsesRequest({ ...base, maxOutputTokens: 5 }, 'gpt-6');
    expect(value.max_output_tokens).toBe(16);
    expect(warnings).toEqual([expect.objectContaining({ type: 'lossy-conversion', field: 'maxOutputTokens' })]);
  });

  it('refuses stop sequences, which Responses cannot carry and which are not safe to drop', () => {
    expect(() => encodeOpenAIResponsesRequest({ ...base, stopSequences: ['END'] }, 'gpt-6')).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_PARAMETER', param: 'stopSequences', status: 400 }),
    );
  });

  it('encodes tools, tool choice, response format, reasoning, metadata and user', () => {
    const { value } = encodeOpenAIResponsesRequest(
      {
        ...base,
        temperature: 0.5,
        topP: 0.9,
        tools: [
          { name: 'f', description: 'Does f.', inputSchema: { type: 'object', properties: {} } },
          { name: 'g', inputSchema: { type: 'object' }, strict: true },
        ],
        toolChoice: { type: 'tool', name: 'f' },
        parallelToolCalls: false,
        responseFormat: { type: 'json-schema', schema: { type: 'object' } },
        reasoning: { effort: 'high' },
        metadata: { a: 'b' },
        user: 'end-user',
      },
      'gpt-6',
    );
    expect(value).toMatchObject({
      temperature: 0.5,
      top_p: 0.9,
      tools: [
        {
          type: 'function',
          name: 'f',
          description: 'Does f.',
          parameters: { type: 'object', properties: {} },
          strict: false,
        },
        { type: 'function', name: 'g', parameters: { type: 'object' }, strict: true },
      ],
      tool_choice: { type: 'function', name: 'f' },
      parallel_tool_calls: false,
      text: { format: { type: 'json_schema', name: 'response', schema: { type: 'object' } } },
      reasoning: { effort: 'high' },
      metadata: { a: 'b' },
      safety_identifier: 'end-user',
    });
  });

  it.each([
    [1024, 'low'],
    [8000, 'medium'],
    [32000, 'high'],
  ])('buckets a thinking budget of %i tokens into effort %s', (budgetTokens, effort) => {
    const { value, warnings } = encodeOpenAIResponsesRequest(
      { ...base, reasoning: { budgetTokens } },
      'gpt-6',
    );
    expect(value.reasoning).toEqual({ effort });
    expect(warnings).toEqual([expect.objectContaining({ field: 'reasoning.budgetTokens' })]);
  });

  it('merges provider options under the IR fields and lets them override store', () => {
    const { value } = encodeOpenAIResponsesRequest(
      {
        ...base,
        reasoning: { effort: 'low' },
        providerOptions: {
          'openai-responses': {
            store: true,
            reasoning: { summary: 'auto', effort: 'high' },
            stream_options: { include_obfuscation: false },
            service_tier: 'flex',
          },
          'openai-chat': { logprobs: true },
        },
      },
      'gpt-6',
    );
    expect(value).toMatchObject({
      store: true,
      reasoning: { effort: 'low', summary: 'auto' },
      service_tier: 'flex',
    });
    expect(value).not.toHaveProperty('stream_options');
    expect(value).not.toHaveProperty('logprobs');
  });
});
