import type { JSONObject, JSONValue } from '@signalbox/core';
import { listMemberPaths } from '@signalbox/core/testing';
import { addAnthropicCacheBreakpoints } from './add-anthropic-cache-breakpoints';

/** Every path of the body that carries a `cache_control`, in document order. */
const breakpointPaths = (body: JSONValue) => listMemberPaths(body, 'cache_control');

const tool = (name: string): JSONObject => ({ name, input_schema: { type: 'object' } });
const text = (value: string): JSONObject => ({ type: 'text', text: value });
const thinking: JSONObject = { type: 'thinking', thinking: 'Plan the call.', signature: 'c2lnbmVk' };
const call = (id: string): JSONObject => ({ type: 'tool_use', id, name: 'read', input: { path: 'a.txt' } });
const result = (id: string): JSONObject => ({ type: 'tool_result', tool_use_id: id, content: 'contents' });

/** Claude Code's tool loop: thinking, text and a call per answer, a tool result per input. */
const toolLoop: JSONObject[] = [
  { role: 'user', content: [text('Read a.txt'), text('<reminder>')] },
  { role: 'assistant', content: [thinking, text('Reading.'), call('toolu_1')] },
  { role: 'user', content: [result('toolu_1')] },
  { role: 'assistant', content: [thinking, call('toolu_2')] },
  { role: 'user', content: [result('toolu_2')] },
];

describe('addAnthropicCacheBreakpoints', () => {
  it.each<{ name: string; body: JSONObject; expected: string[] }>([
    {
      name: 'tools only: the last tool and the only input',
      body: { tools: [tool('read'), tool('write')], messages: [{ role: 'user', content: 'Hi' }] },
      expected: ['tools.1', 'messages.0.content.0'],
    },
    {
      name: 'system only: a string system becomes one marked block',
      body: { system: 'Be brief.', messages: [] },
      expected: ['system.0'],
    },
    {
      name: 'system blocks: the last non-empty one',
      body: { system: [text('Rules.'), text('Repository notes.')], messages: [{ role: 'user', content: [text('Hi')] }] },
      expected: ['system.1', 'messages.0.content.0'],
    },
    {
      name: 'a long tool loop: the input the last request ended with and the newest input, never thinking',
      body: { tools: [tool('read')], system: [text('Rules.')], messages: toolLoop },
      expected: ['tools.0', 'system.0', 'messages.2.content.0', 'messages.4.content.0'],
    },
    {
      name: 'a second turn: the first input and the newest one',
      body: { messages: [{ role: 'user', content: 'Hi' }, { role: 'assistant', content: 'Hello.' }, { role: 'user', content: [text('Bye'), { type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] }] },
      expected: ['messages.0.content.0', 'messages.2.content.1'],
    },
    {
      name: 'a system turn after the user input (Claude Code’s first request) is the newest input',
      body: { messages: [{ role: 'user', content: [text('Hi')] }, { role: 'system', content: [text('# Environment')] }] },
      expected: ['messages.1.content.0'],
    },
    {
      name: 'an assistant prefill: the input before it, not the prefill',
      body: { messages: [{ role: 'user', content: 'Answer in JSON' }, { role: 'assistant', content: [thinking] }] },
      expected: ['messages.0.content.0'],
    },
    {
      name: 'a turn that ends in empty text: the block before it',
      body: { messages: [{ role: 'user', content: [text('Hi'), text('')] }] },
      expected: ['messages.0.content.0'],
    },
  ])('$name', ({ body, expected }) => {
    const before = JSON.stringify(body);
    const marked = addAnthropicCacheBreakpoints(body);
    expect(breakpointPaths(marked)).toEqual(expected);
    expect(expected.length).toBeLessThanOrEqual(4);
    expect(JSON.stringify(marked)).not.toMatch(/"type":"thinking"[^}]*"cache_control"/);
    // The caller's body is left as it was: only copies carry the breakpoints.
    expect(JSON.stringify(body)).toBe(before);
    expect(breakpointPaths(body)).toEqual([]);
  });

  it.each<{ name: string; body: JSONObject }>([
    {
      name: 'the client’s own four',
      body: {
        tools: [{ ...tool('read'), cache_control: { type: 'ephemeral' } }],
        system: [{ ...text('Rules.'), cache_control: { type: 'ephemeral', ttl: '1h' } }],
        messages: [
          { role: 'user', content: [{ ...text('Hi'), cache_control: { type: 'ephemeral' } }] },
          { role: 'assistant', content: [text('Hello.')] },
          { role: 'user', content: [{ ...text('Bye'), cache_control: { type: 'ephemeral' } }] },
        ],
      },
    },
    { name: 'one on a tool', body: { tools: [{ ...tool('read'), cache_control: { type: 'ephemeral' } }, tool('write')], messages: toolLoop } },
    { name: 'one inside a tool result', body: { messages: [{ role: 'user', content: [{ ...result('toolu_1'), content: [{ ...text('x'), cache_control: { type: 'ephemeral' } }] }] }] } },
    { name: 'the top-level automatic cache_control', body: { cache_control: { type: 'ephemeral' }, system: 'Be brief.', messages: toolLoop } },
  ])('leaves a body with $name as it is', ({ body }) => {
    expect(addAnthropicCacheBreakpoints(body)).toBe(body);
  });

  it('treats cache_control: null as no breakpoint', () => {
    const body: JSONObject = { cache_control: null, system: [{ ...text('Rules.'), cache_control: null }], messages: [{ role: 'user', content: 'Hi' }] };
    expect(breakpointPaths(addAnthropicCacheBreakpoints(body))).toEqual(['system.0', 'messages.0.content.0']);
  });

  it('marks, as the input this request reads back, the block the request before marked as its newest input', () => {
    const first = addAnthropicCacheBreakpoints({ messages: toolLoop.slice(0, 3) });
    const second = addAnthropicCacheBreakpoints({ messages: toolLoop });
    expect(breakpointPaths(first)).toEqual(['messages.0.content.1', 'messages.2.content.0']);
    expect(breakpointPaths(second)).toEqual(['messages.2.content.0', 'messages.4.content.0']);
    expect((second.messages as JSONValue[])[2]).toEqual((first.messages as JSONValue[])[2]);
  });
});
