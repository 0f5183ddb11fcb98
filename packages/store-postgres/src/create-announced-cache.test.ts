import { createAnnouncedCache } from './create-announced-cache';

describe('createAnnouncedCache', () => {
  const row = (status: string) => ({ id: 'key_1', status });

  it('keeps a found row while changes are announced, until a change empties it', async () => {
    const cache = createAnnouncedCache({ enabled: true });
    cache.setAnnounced(true);
    const read = jest.fn().mockResolvedValueOnce(row('active')).mockResolvedValueOnce(row('disabled'));
    expect(await cache.find('digest', read)).toEqual(row('active'));
    expect(await cache.find('digest', read)).toEqual(row('active'));
    expect(read).toHaveBeenCalledTimes(1);
    cache.clear();
    expect(await cache.find('digest', read)).toEqual(row('disabled'));
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('never keeps a secret that was not found', async () => {
    const cache = createAnnouncedCache({ enabled: true });
    cache.setAnnounced(true);
    const read = jest.fn().mockResolvedValue(undefined);
    await cache.find('unknown', read);
    await cache.find('unknown', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('does not keep a row read while a key changed, and reads again after clear', async () => {
    const cache = createAnnouncedCache({ enabled: true });
    cache.setAnnounced(true);
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

  it('reads on every lookup when turned off', async () => {
    const cache = createAnnouncedCache({ enabled: false });
    cache.setAnnounced(true);
    const read = jest.fn().mockResolvedValue(row('active'));
    await cache.find('digest', read);
    await cache.find('digest', read);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('keeps nothing while changes are not announced: before listening, and from the moment the listener is lost', async () => {
    const cache = createAnnouncedCache({ enabled: true });
    const read = jest.fn().mockResolvedValue(row('active'));
    await cache.find('digest', read);
    await cache.find('digest', read);
    expect(read).toHaveBeenCalledTimes(2);
    cache.setAnnounced(true);
    await cache.find('digest', read);
    await cache.find('digest', read);
    expect(read).toHaveBeenCalledTimes(3);
    let finishRead!: (value: Record<string, unknown>) => void;
    const pending = cache.find('other', () => new Promise(resolve => (finishRead = resolve)));
    cache.setAnnounced(false);
    finishRead(row('active'));
    await pending;
    await cache.find('digest', read);
    await cache.find('digest', read);
    expect(read).toHaveBeenCalledTimes(5);
    const other = jest.fn().mockResolvedValue(row('active'));
    await cache.find('other', other);
    expect(other).toHaveBeenCalledTimes(1);
  });

  it('serves a kept row at most maxAgeMs old, then reads it again and keeps the new one', async () => {
    let now = 1_000;
    const cache = createAnnouncedCache({ enabled: true, maxAgeMs: 100, now: () => now });
    cache.setAnnounced(true);
    const read = jest.fn().mockResolvedValueOnce(row('active')).mockResolvedValueOnce(row('disabled'));
    expect(await cache.find('account', read)).toEqual(row('active'));
    now += 99;
    expect(await cache.find('account', read)).toEqual(row('active'));
    now += 1;
    expect(await cache.find('account', read)).toEqual(row('disabled'));
    expect(await cache.find('account', read)).toEqual(row('disabled'));
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('keeps at most maxEntries rows, dropping the oldest kept', async () => {
    const cache = createAnnouncedCache({ enabled: true, maxEntries: 2 });
    cache.setAnnounced(true);
    const read = jest.fn().mockResolvedValue(row('active'));
    for (const digest of ['a', 'b', 'c', 'b', 'c']) await cache.find(digest, read);
    expect(read).toHaveBeenCalledTimes(3);
    await cache.find('a', read);
    expect(read).toHaveBeenCalledTimes(4);
  });
});
