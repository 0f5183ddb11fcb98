import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerationRequest } from '@signalbox/core';
import { gatewayErrorOf } from '@signalbox/core/testing';
import { decodeOpenAIChatRequest } from './decode-openai-chat-request';
import { encodeOpenAIChatRequest } from './encode-openai-chat-request';
import { toOpenAIChatToolCallId } from './to-openai-chat-tool-call-id';

// Wire-shaped synthetic client body; provenance in __fixtures__/README.md.
const everything = JSON.parse(
  readFileSync(join(__dirname, '../__fixtures__/everything.1.request.json'), 'utf8'),
);

function request(overrides: Partial<GenerationRequest>): GenerationRequest {
  return {
    model: 'client-model',
    system: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    stream: false,
    ...overrides,
  };
}

describe('encodeOpenAIChatRequest', () => {
  it('re-encodes a Chat client body for a Chat upstream (golden)', () => {
    const { value, warnings } = encodeOpenAIChatRequest(
      decodeOpenAIChatRequest(everything).value,
      'gpt-6-2026-10-01',
    );
    expect(warnings).toEqual([]);
    expect(value).toMatchSnapshot();
    expect(value).toMatchObject({
      model: 'gpt-6-2026-10-01',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 512, // the client's own field name
      n: 1,
      seed: 42,
      logit_bias: { '50256': -100 },
      user: 'user-7f3e9a',
    });
    expect(value).not.toHaveProperty('max_completion_tokens');
    expect((value.messages as unknown[]).slice(0, 2)).toEqual([
      { role: 'system', content: 'You are terse.\n\nAnswer in English.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image and this PDF?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          {
            type: 'file',
            file: { file_data: 'data:application/pdf;base64,JVBERi0xLjQ=', filename: 'report.pdf' },
          },
        ],
      },
    ]);
  });

  it('sends the IR prompt cache key (a Responses client’s, or the gateway’s own) as prompt_cache_key', () => {
    const { value, warnings } = encodeOpenAIChatRequest(request({ promptCacheKey: 'thread-1' }), 'up');
    expect(value.prompt_cache_key).toBe('thread-1');
    expect(warnings).toEqual([]);
  });

  it('sends only what the IR sets: a minimal request', () => {
    expect(encodeOpenAIChatRequest(request({}), 'up')).toEqual({
      value: { model: 'up', messages: [{ role: 'user', content: 'Hi' }], stream: false },
      warnings: [],
    });
  });

  it('always asks a streaming upstream for usage, and uses max_completion_tokens by default', () => {
    const { value } = encodeOpenAIChatRequest(request({ stream: true, maxOutputTokens: 100 }), 'up');
    expect(value).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 100,
    });
    expect(value).not.toHaveProperty('max_tokens');
    const clientSaidNo = request({
      stream: true,
      providerOptions: { 'openai-chat': { stream_options: { include_usage: false } } },
    });
    expect(encodeOpenAIChatRequest(clientSaidNo, 'up').value.stream_options).toEqual({ include_usage: true });
  });

  it('encodes a cross-protocol conversation (golden), with warnings for what Chat cannot carry', () => {
    const longId = `toolu_${'x'.repeat(60)}`;
    const { value, warnings } = encodeOpenAIChatRequest(
      request({
        system: [{ type: 'text', text: 'Be brief.' }],
        messages: [
          {
            role: 'user',
            content: [{ type: 'file', source: { kind: 'text', mediaType: 'text/plain', data: 'notes' } }],
          },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'thinking…', signature: 'sig' },
              { type: 'reasoning', text: '', redactedData: 'opaque' },
              { type: 'text', text: 'Let me look.' },
              { type: 'tool-call', callId: longId, name: 'screenshot', arguments: '' },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                callId: longId,
                content: [
                  { type: 'text', text: 'captured' },
                  { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
                ],
              },
            ],
          },
          { role: 'assistant', content: [{ type: 'refusal', text: 'I cannot.' }] },
          { role: 'tool', content: [{ type: 'tool-result', callId: 'call_2', content: [], isError: true }] },
        ],
        tools: [{ name: 'screenshot', inputSchema: { type: 'object', properties: {} } }],
        toolChoice: { type: 'auto' },
        responseFormat: { type: 'json-schema', schema: { type: 'object' } },
        reasoning: { budgetTokens: 2048 },
        stopSequences: ['a', 'b'],
        temperature: 0.5,
        topP: 1,
        parallelToolCalls: false,
        metadata: { k: 'v' },
      }),
      'up',
    );
    expect(value).toMatchSnapshot();
    const messages = value.messages as Array<Record<string, unknown>>;
    const mappedId = toOpenAIChatToolCallId(longId);
    expect(mappedId).toMatch(/^call_.{32}$/);
    expect(messages[2]).toEqual({
      role: 'assistant',
      content: 'Let me look.',
      tool_calls: [{ id: mappedId, type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
    });
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: mappedId, content: 'captured' });
    expect(messages[4]).toEqual({
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }],
    });
    expect(messages[5]).toEqual({ role: 'assistant', content: '', refusal: 'I cannot.' });
    expect(messages[6]).toEqual({ role: 'tool', tool_call_id: 'call_2', content: 'Error' });
    expect(value.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema: { type: 'object' } },
    });
    expect(warnings.map(warning => `${warning.type} ${warning.field}`)).toEqual([
      'lossy-conversion messages.0.content.0',
      'unsupported-field messages.1.content.0',
      'lossy-conversion messages.2.content.0',
      'lossy-conversion messages.4.content.0.isError',
      'unsupported-field reasoning.budgetTokens',
    ]);
  });

  it('refuses more than 4 stop sequences, naming the IR field', () => {
    const error = gatewayErrorOf(() =>
      encodeOpenAIChatRequest(request({ stopSequences: ['1', '2', '3', '4', '5'] }), 'up'),
    );
    expect(error).toMatchObject({ code: 'UNSUPPORTED_PARAMETER', param: 'stopSequences' });
  });

  it('refuses a file known only by URL rather than dropping it', () => {
    const error = gatewayErrorOf(() =>
      encodeOpenAIChatRequest(
        request({
          messages: [
            { role: 'user', content: [{ type: 'file', source: { kind: 'url', url: 'https://x/a.pdf' } }] },
          ],
        }),
        'up',
      ),
    );
    expect(error).toMatchObject({ code: 'UNSUPPORTED_PARAMETER', param: 'messages.0.content.0' });
  });

  it('leaves out an empty tools array and the tool settings that mean nothing without tools', () => {
    const noTools = request({ tools: [], toolChoice: { type: 'auto' }, parallelToolCalls: false });
    expect(encodeOpenAIChatRequest(noTools, 'up').value).toEqual({
      model: 'up',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: false,
    });
    const forced = request({ tools: [], toolChoice: { type: 'tool', name: 'f' } });
    expect(encodeOpenAIChatRequest(forced, 'up').value.tool_choice).toEqual({
      type: 'function',
      function: { name: 'f' },
    });
  });

  it('keeps IR values over provider options with the same name', () => {
    const { value } = encodeOpenAIChatRequest(
      request({ temperature: 0.1, providerOptions: { 'openai-chat': { temperature: 1, seed: 7 } } }),
      'up',
    );
    expect(value).toMatchObject({ temperature: 0.1, seed: 7 });
  });
});
