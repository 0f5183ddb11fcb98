import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GenerationRequest, JSONObject } from '@signalbox/core';
import { listMemberPaths } from '@signalbox/core/testing';
import { addAnthropicCacheBreakpoints } from './add-anthropic-cache-breakpoints';
import { decodeAnthropicRequest } from '../request/decode-anthropic-request';
import { encodeAnthropicRequest } from '../request/encode-anthropic-request';

const breakpoint = { type: 'ephemeral' };
const longLived = { type: 'ephemeral', ttl: '1h' };

/** A Messages body with a breakpoint on every kind of block that may carry one. */
const marked: JSONObject = {
  model: 'client-model',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'Rules.', cache_control: longLived }],
  tools: [{ name: 'read', input_schema: { type: 'object' }, cache_control: breakpoint }],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at these', cache_control: breakpoint },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' }, cache_control: breakpoint },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, cache_control: breakpoint },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading.', cache_control: breakpoint },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: {}, cache_control: breakpoint },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [{ type: 'text', text: 'x', cache_control: longLived }],
          cache_control: breakpoint,
        },
      ],
    },
  ],
};

// Claude Code's second request of a Read round trip; provenance in __fixtures__/README.md.
const claudeCode = JSON.parse(readFileSync(join(__dirname, '../__fixtures__/claude-code-tool-loop.1.request.json'), 'utf8')) as JSONObject;

describe('cache_control through the IR', () => {
  it('decodes every breakpoint of a Messages client onto its IR part, tool or system part', () => {
    const request = decodeAnthropicRequest(marked).value;
    expect(request.system).toEqual([{ type: 'text', text: 'Rules.', cacheControl: { type: 'ephemeral', ttl: '1h' } }]);
    expect(request.tools?.[0]?.cacheControl).toEqual({ type: 'ephemeral' });
    expect(listMemberPaths(request.messages, 'cacheControl')).toEqual([
      '0.content.0',
      '0.content.1',
      '0.content.2',
      '1.content.0',
      '1.content.1',
      '2.content.0',
      '2.content.0.content.0',
    ]);
  });

  it('encodes them back to the same blocks, with their lifetimes', () => {
    const encoded = encodeAnthropicRequest(decodeAnthropicRequest(marked).value, 'claude-x').value;
    expect(listMemberPaths(encoded, 'cache_control').sort()).toEqual(listMemberPaths(marked, 'cache_control').sort());
    expect(encoded.system).toEqual(marked.system);
    expect(encoded.messages).toEqual(marked.messages);
  });

  it('keeps the breakpoint of a system turn when it is hoisted into the system blocks', () => {
    const request: GenerationRequest = {
      model: 'client-model',
      system: [{ type: 'text', text: 'Rules.' }],
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Environment.', cacheControl: { type: 'ephemeral' } }] },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      ],
      stream: false,
    };
    expect(encodeAnthropicRequest(request, 'claude-x').value.system).toEqual([
      { type: 'text', text: 'Rules.' },
      { type: 'text', text: 'Environment.', cache_control: breakpoint },
    ]);
  });

  it('writes no cache_control for an IR without breakpoints (a Responses or Chat client)', () => {
    const request: GenerationRequest = {
      model: 'client-model',
      system: [{ type: 'text', text: 'Rules.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [{ name: 'read', inputSchema: { type: 'object' } }],
      stream: false,
    };
    expect(listMemberPaths(encodeAnthropicRequest(request, 'claude-x').value, 'cache_control')).toEqual([]);
  });

  it('keeps Claude Code’s own breakpoints at their blocks when its request is encoded from the IR, and adds none', () => {
    const encoded = encodeAnthropicRequest(decodeAnthropicRequest(claudeCode).value, 'claude-x').value;
    expect(listMemberPaths(claudeCode, 'cache_control')).toEqual(['messages.3.content.0', 'system.1', 'system.2']);
    // Its system turn is hoisted behind the system blocks; the tool result keeps its breakpoint.
    expect(listMemberPaths(encoded, 'cache_control').sort()).toEqual(['messages.2.content.0', 'system.1', 'system.2']);
    expect(addAnthropicCacheBreakpoints(claudeCode)).toBe(claudeCode);
  });
});
