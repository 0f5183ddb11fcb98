import type { Compaction } from '@signalbox/core';
import { gatewayErrorOf } from '@signalbox/core/testing';
import { openAIResponsesCompaction } from './openai-responses-compaction';

const { decodeCompactionRequest, openCompactionItems, encodeCompactedResponse, encodeCompactionTurn } = openAIResponsesCompaction;

const compaction: Compaction = {
  createdAt: 1_767_225_600,
  model: 'client-model',
  keptItems: [{ id: 'msg_1', type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_text', text: 'hi' }] }],
  item: { id: 'cmp_1', encryptedContent: 'sy1.sealed' },
  usage: { inputTokens: 10, outputTokens: 4, cacheReadTokens: undefined, cacheWriteTokens: undefined, cacheWrite1hTokens: undefined, reasoningTokens: undefined },
};

describe('Responses compaction requests', () => {
  it('reads the conversation like a generation input and keeps its user messages verbatim, with their own ids and none invented', () => {
    const { value } = decodeCompactionRequest({
      model: 'client-model',
      instructions: 'Be brief.',
      input: [
        { id: 'msg_a', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] },
        { role: 'assistant', content: 'two' },
        { role: 'developer', content: 'three' },
        { role: 'user', content: 'four' },
      ],
      prompt_cache_key: 'thread-1',
      service_tier: 'auto',
    });
    expect(value.conversation.model).toBe('client-model');
    expect(value.conversation.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(value.conversation.messages.map(message => message.role)).toEqual(['user', 'assistant', 'system', 'user']);
    expect(value.keptItems).toEqual([
      { id: 'msg_a', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'one' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'four' }] },
    ]);
  });

  it('accepts the generation members Codex sends with a compaction (tools, reasoning, text) and leaves them', () => {
    const { value } = decodeCompactionRequest({
      model: 'm',
      input: [{ role: 'user', content: 'fix the bug' }],
      instructions: 'You are a coding agent.',
      tools: [{ type: 'function', name: 'shell', parameters: { type: 'object' } }],
      parallel_tool_calls: false,
      reasoning: { effort: 'medium' },
      text: { verbosity: 'low' },
      service_tier: 'auto',
      prompt_cache_key: 'thread-1',
    });
    expect(value.conversation.tools).toBeUndefined();
    expect(value.conversation.reasoning).toBeUndefined();
    expect(value.keptItems).toHaveLength(1);
  });

  it('keeps a string input as one user message', () => {
    expect(decodeCompactionRequest({ model: 'm', input: 'just this' }).value.keptItems).toEqual([
      expect.objectContaining({ role: 'user', content: [{ type: 'input_text', text: 'just this' }] }),
    ]);
  });

  it('refuses an unknown field, a missing model and a bad item with a 400 naming each', () => {
    expect(gatewayErrorOf(() => decodeCompactionRequest({ model: 'm', input: [], frobnicate: 1 })).message).toContain('frobnicate');
    expect(gatewayErrorOf(() => decodeCompactionRequest({ input: [] })).message).toContain('model');
    const bad = gatewayErrorOf(() => decodeCompactionRequest({ model: 'm', input: [{ type: 'message', role: 'user', content: 7 }] }));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('input.0');
  });
});

describe('compaction items in a generation body', () => {
  const open = (content: string) => `summary of ${content}`;

  it('leaves a body without compaction items as the same object', () => {
    const body = { model: 'm', input: [{ role: 'user', content: 'hi' }] };
    expect(openCompactionItems(body, open)).toEqual({ body, triggered: false });
    expect(openCompactionItems(body, open).body).toBe(body);
  });

  it('replaces each compaction item in place with a developer message carrying its summary, and reports a final trigger', () => {
    const opened = openCompactionItems(
      {
        model: 'm',
        input: [{ type: 'compaction', id: 'cmp_1', encrypted_content: 'A' }, { role: 'user', content: 'next' }, { type: 'compaction_trigger' }],
      },
      open,
    );
    expect(opened).toEqual({
      body: {
        model: 'm',
        input: [
          { type: 'message', role: 'developer', content: 'Summary of the earlier conversation: summary of A' },
          { role: 'user', content: 'next' },
        ],
      },
      triggered: true,
    });
  });

  it('passes the item’s path to the opener, and refuses an item without encrypted_content with a 400 naming it', () => {
    const paths: (readonly PropertyKey[])[] = [];
    openCompactionItems({ input: [{ role: 'user', content: 'x' }, { type: 'compaction', encrypted_content: 'B' }] }, (content, path) => {
      paths.push(path);
      return content;
    });
    expect(paths).toEqual([['input', 1]]);
    const missing = gatewayErrorOf(() => openCompactionItems({ input: [{ type: 'compaction' }] }, open));
    expect(missing.status).toBe(400);
    expect(missing.message).toContain('input.0.encrypted_content');
  });
});

describe('compaction answers', () => {
  it('renders the CompactedResponse: kept items, then the compaction item, and the usage', () => {
    expect(encodeCompactedResponse(compaction)).toEqual({
      id: expect.stringMatching(/^resp_/),
      object: 'response.compaction',
      created_at: 1_767_225_600,
      output: [...compaction.keptItems, { id: 'cmp_1', type: 'compaction', encrypted_content: 'sy1.sealed' }],
      usage: {
        input_tokens: 10,
        input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        output_tokens: 4,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 14,
      },
    });
  });

  it('renders a triggered compaction as a completed Response whose only output is the compaction item', () => {
    const request = { model: 'client-model', system: [], messages: [], stream: false };
    expect(encodeCompactionTurn(compaction, request)).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'client-model',
      output: [{ id: 'cmp_1', type: 'compaction', encrypted_content: 'sy1.sealed' }],
      usage: { input_tokens: 10, output_tokens: 4 },
    });
  });
});
