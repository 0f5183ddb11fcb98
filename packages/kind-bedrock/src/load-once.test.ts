import { loadOnce } from './load-once';

describe('loadOnce', () => {
  it('loads once for every caller, then hands out the loaded value itself, not a promise', async () => {
    let loads = 0;
    const load = loadOnce(async () => ({ loaded: ++loads }));
    const [first, second] = await Promise.all([load(), load()]);
    expect(first).toBe(second);
    expect(load()).toBe(first);
    expect(loads).toBe(1);
  });

  it('tries again after a failed load', async () => {
    let loads = 0;
    const load = loadOnce(async () => {
      if (++loads === 1) throw new Error('not installed');
      return 'module';
    });
    await expect(load()).rejects.toThrow('not installed');
    await expect(load()).resolves.toBe('module');
    expect(load()).toBe('module');
  });
});
