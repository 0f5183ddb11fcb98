import { decodeOpenAIResponsesResponse } from '../response/decode-openai-responses-response';
import { createOpenAIResponsesStreamDecoder } from '../stream/decode-openai-responses-stream';
import { flattenNamespacedToolName, restoreNamespacedToolName } from './namespaced-tool-names';

describe('namespaced tool names', () => {
  it('joins namespace and function with a double underscore', () => {
    expect(flattenNamespacedToolName('crm', 'find')).toBe('crm__find');
  });

  it('keeps long names within 64 characters and distinct', () => {
    const first = flattenNamespacedToolName('n'.repeat(40), `${'t'.repeat(40)}a`);
    const second = flattenNamespacedToolName('n'.repeat(40), `${'t'.repeat(40)}b`);
    expect([first.length, second.length]).toEqual([64, 64]);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^[a-zA-Z0-9_-]+$/);
  });

  it('maps a flat name back to the namespace and function the client declared', () => {
    const tools = [
      { name: 'crm__find', inputSchema: {}, namespace: { name: 'crm', tool: 'find' } },
      { name: 'plain', inputSchema: {} },
    ];
    expect(restoreNamespacedToolName('crm__find', tools)).toEqual({ name: 'find', namespace: 'crm' });
    expect(restoreNamespacedToolName('plain', tools)).toEqual({ name: 'plain' });
  });
});

describe('namespaced calls from a Responses upstream', () => {
  it('are read under their flat IR name, JSON and stream', () => {
    const item = { type: 'function_call', id: 'fc_1', call_id: 'c1', name: 'find', namespace: 'crm', arguments: '{}', status: 'completed' };
    const decoded = decodeOpenAIResponsesResponse({ id: 'resp_1', object: 'response', model: 'm', status: 'completed', output: [item] });
    expect(decoded.content).toEqual([{ type: 'tool-call', callId: 'c1', name: 'crm__find', arguments: '{}' }]);

    const events = createOpenAIResponsesStreamDecoder().push({
      event: 'response.output_item.added',
      data: JSON.stringify({ type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } }),
    });
    expect(events).toContainEqual(expect.objectContaining({ type: 'tool-call-start', callId: 'c1', toolName: 'crm__find' }));
  });
});
