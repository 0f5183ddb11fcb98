import { createKeyCache } from './create-key-cache';

describe('createKeyCache', () => {
  const row = (status: string) => ({ id: 'key_1', status });

  it('reuses a found row until it is maxAgeMs old, then reads it again', async () => {
    let clock = 1_000;
    const cache = createKeyCache({ maxAgeMs: 1_000, now: () => clock });
    const read = jest.fn().mockResolvedValueOnce(row('active')).mockResolvedValueOnce(row('disabled'));
    expect(await cache.find('digest', read)).toEqual(row('active'));
    clock = 1_999;
    expect(await cache.find('digest', read)).toEqual(row('active'));
    expect(read).toHaveBeenCalledTimes(1);
    clock = 2_000;
    expect(await cache.find('digest', read)).toEqual(row('disabled'));
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('never keeps a secret that was not found', async () => {
    const cache = createKeyCache({ maxAgeMs: 1_000, now: () => 0 });
    const read = jest.fn().mockResolvedValue(undefined);
    await cache.find('unknown', read);
    await cache.find('unknown', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('does not keep a row read while a key changed through the store, and reads again after clear', async () => {
    const cache = createKeyCache({ maxAgeMs: 1_000, now: () => 0 });
    let finishRead!: (value: Record<string, unknown>) => void;
    const slow = () => new Promise<Record<string, unknown>>(resolve => (finishRead = resolve));
    const pending = cache.find('digest', slow);
    cache.clear();
    finishRead(row('active'));
    expect(await pending).toEqual(row('active'));
    const read = jest.fn().mockResolvedValue(row('disabled'));
    expect(await cache.find('digest', read)).toEqual(row('disabled'));
    cache.clear();
    expect(await cache.find('digest', read)).toEqual(row('disabled'));
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('reads on every lookup with maxAgeMs 0', async () => {
    const cache = createKeyCache({ maxAgeMs: 0, now: () => 0 });
    const read = jest.fn().mockResolvedValue(row('active'));
    await cache.find('digest', read);
    await cache.find('digest', read);
    expect(read).toHaveBeenCalledTimes(2);
  });
});
