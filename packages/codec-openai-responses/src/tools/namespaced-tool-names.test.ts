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
