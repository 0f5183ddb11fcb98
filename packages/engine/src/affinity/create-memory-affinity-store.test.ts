import { createMemoryAffinityStore } from './create-memory-affinity-store';

const pin = (credential: string) => ({ upstream: 'main', credential });

describe('createMemoryAffinityStore', () => {
  it('forgets a pin once idle for its time, on the clock it is given, and touching restarts the wait', () => {
    const clock = { now: 1_000 };
    const store = createMemoryAffinityStore({ now: () => clock.now, maxConversations: 10 });
    store.set('conversation', pin('a'), 100);
    clock.now = 1_099;
    expect(store.get('conversation')).toEqual(pin('a'));
    store.touch('conversation', 100);
    clock.now = 1_198;
    expect(store.get('conversation')).toEqual(pin('a'));
    clock.now = 1_199;
    expect(store.get('conversation')).toBeUndefined();
    // A touch does not bring an expired pin back.
    store.touch('conversation', 100);
    expect(store.get('conversation')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('keeps at most maxConversations pins, dropping the least recently used first', () => {
    const store = createMemoryAffinityStore({ now: () => 0, maxConversations: 2 });
    store.set('first', pin('a'), 1_000);
    store.set('second', pin('b'), 1_000);
    store.touch('first', 1_000);
    store.set('third', pin('c'), 1_000);
    expect(store.size).toBe(2);
    expect(store.get('second')).toBeUndefined();
    expect(store.get('first')).toEqual(pin('a'));
    expect(store.get('third')).toEqual(pin('c'));
    store.set('first', pin('b'), 1_000);
    expect(store.get('first')).toEqual(pin('b'));
  });
});
