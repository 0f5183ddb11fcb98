import { createFixedWindows } from './create-fixed-windows';

describe('createFixedWindows', () => {
  it('opens a window with the first points and closes it exactly windowMs later', () => {
    let now = 5_000;
    const windows = createFixedWindows(() => now);
    expect(windows.read('a')).toBeUndefined();
    expect(windows.add('a', 3, 1_000)).toEqual({ used: 3, msLeft: 1_000 });
    now += 400;
    expect(windows.add('a', 2, 9_999)).toEqual({ used: 5, msLeft: 600 });
    now += 599;
    expect(windows.read('a')).toEqual({ used: 5, msLeft: 1 });
    now += 1;
    expect(windows.read('a')).toBeUndefined();
    expect(windows.add('a', 0, 1_000)).toEqual({ used: 0, msLeft: 1_000 });
  });

  it('keeps counters apart', () => {
    const windows = createFixedWindows(() => 0);
    windows.add('a', 1, 1_000);
    windows.add('b', 7, 2_000);
    expect([windows.read('a'), windows.read('b')]).toEqual([
      { used: 1, msLeft: 1_000 },
      { used: 7, msLeft: 2_000 },
    ]);
  });

  it('drops closed windows as new counters arrive, so memory follows the counters in use', () => {
    let now = 0;
    const windows = createFixedWindows(() => now);
    for (let index = 0; index < 5_000; index++) {
      windows.add(`key-${index}`, 1, 10);
      now += 1;
    }
    // Only windows opened in the last 10 ms are open; the sweep keeps at most about twice that or 1024.
    expect(windows.size()).toBeLessThanOrEqual(1_024);
    expect(windows.read('key-4999')).toEqual({ used: 1, msLeft: 9 });
    expect(windows.read('key-0')).toBeUndefined();
  });
});
