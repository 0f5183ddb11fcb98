import { createMemoryAffinityStore } from './create-memory-affinity-store';

const pin = (credential: string) => ({ upstream: 'main', credential });

describe('createMemoryAffinityStore', () => {
  it('forgets a pin once idle for its time, on the clock it is given, and each lookup restarts the wait with its own idle time', () => {
    const clock = { now: 1_000 };
    const store = createMemoryAffinityStore({ now: () => clock.now, maxConversations: 10 });
    store.set('conversation', pin('a'), 100);
    clock.now = 1_099;
    expect(store.get('conversation', 100)).toEqual(pin('a'));
    // Without that lookup the pin would have expired at 1 100.
    clock.now = 1_198;
    expect(store.get('conversation', 300)).toEqual(pin('a'));
    clock.now = 1_497;
    expect(store.get('conversation', 100)).toEqual(pin('a'));
    clock.now = 1_597;
    expect(store.get('conversation', 100)).toBeUndefined();
    expect(store.size).toBe(0);
    // A lookup does not bring an expired pin back.
    expect(store.get('conversation', 100)).toBeUndefined();
  });

  it('keeps at most maxConversations pins, dropping the least recently looked up or set first', () => {
    const store = createMemoryAffinityStore({ now: () => 0, maxConversations: 2 });
    store.set('first', pin('a'), 1_000);
    store.set('second', pin('b'), 1_000);
    expect(store.get('first', 1_000)).toEqual(pin('a'));
    store.set('third', pin('c'), 1_000);
    expect(store.size).toBe(2);
    expect(store.get('second', 1_000)).toBeUndefined();
    expect(store.get('first', 1_000)).toEqual(pin('a'));
    expect(store.get('third', 1_000)).toEqual(pin('c'));
    store.set('first', pin('b'), 1_000);
    expect(store.get('first', 1_000)).toEqual(pin('b'));
  });
});
