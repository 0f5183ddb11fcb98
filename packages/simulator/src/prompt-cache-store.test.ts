import { createPromptCacheStore } from './prompt-cache-store';

describe('createPromptCacheStore', () => {
  it('expires an entry after its lifetime and renews the lifetime on a read', () => {
    const store = createPromptCacheStore({ maxEntriesPerCredential: 10, maxCredentials: 10 });
    store.write('key', 'prefix', 300, 0);
    expect(store.read('key', 'prefix', 299_999)).toBe(true);
    expect(store.read('key', 'prefix', 599_998)).toBe(true);
    expect(store.read('key', 'prefix', 899_998)).toBe(false);
    expect(store.read('key', 'prefix', 0)).toBe(false); // an expired entry is gone
  });

  it('keeps the longer of two lifetimes written for one prefix, and separates keys', () => {
    const store = createPromptCacheStore({ maxEntriesPerCredential: 10, maxCredentials: 10 });
    store.write('key', 'prefix', 3600, 0);
    store.write('key', 'prefix', 300, 0);
    expect(store.read('key', 'prefix', 3_000_000)).toBe(true);
    expect(store.read('other', 'prefix', 1)).toBe(false);
  });

  it('drops the least recently used entry of a key, and the least recently used key, past its bounds', () => {
    const store = createPromptCacheStore({ maxEntriesPerCredential: 2, maxCredentials: 2 });
    store.write('key', 'first', 300, 0);
    store.write('key', 'second', 300, 0);
    expect(store.read('key', 'first', 1)).toBe(true); // now the most recently used
    store.write('key', 'third', 300, 1);
    expect([store.read('key', 'first', 2), store.read('key', 'second', 2), store.read('key', 'third', 2)]).toEqual([true, false, true]);
    store.write('b', 'prefix', 300, 3);
    store.write('key', 'first', 300, 4); // `key` used again after `b`
    store.write('c', 'prefix', 300, 5);
    expect([store.read('key', 'first', 6), store.read('b', 'prefix', 6), store.read('c', 'prefix', 6)]).toEqual([true, false, true]);
    store.clear();
    expect(store.read('key', 'first', 7)).toBe(false);
  });
});
