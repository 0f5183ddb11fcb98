import { createKeepAlive } from './create-keep-alive';

/** The times (fake ms) at which pings were written while `run` advanced the clock. */
function pingTimes(intervalMs: number, run: (keepAlive: ReturnType<typeof createKeepAlive>) => void): number[] {
  const times: number[] = [];
  const start = Date.now();
  const writer = {
    write(frame: string) {
      expect(frame).toBe(': keep-alive\n\n');
      times.push(Date.now() - start);
    },
  };
  const keepAlive = createKeepAlive(writer, intervalMs);
  try {
    run(keepAlive);
  } finally {
    keepAlive.stop();
  }
  return times;
}

describe('createKeepAlive', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('pings a silent stream once per interval, the first after one interval', () => {
    expect(pingTimes(1_000, () => jest.advanceTimersByTime(3_600))).toEqual([1_000, 2_000, 3_000]);
  });

  it('never pings a stream written to more often than every half interval', () => {
    const times = pingTimes(1_000, keepAlive => {
      for (let elapsed = 0; elapsed < 10_000; elapsed += 400) {
        keepAlive.touch();
        jest.advanceTimersByTime(400);
      }
    });
    expect(times).toEqual([]);
  });

  it('lets no silence after a write last an interval without a ping', () => {
    for (const writtenAt of [0, 100, 499, 500, 501, 900]) {
      const times = pingTimes(1_000, keepAlive => {
        jest.advanceTimersByTime(writtenAt);
        keepAlive.touch();
        // A silence longer than the interval: no ping before it has lasted half of it, one before it has lasted all of it.
        jest.advanceTimersByTime(1_000);
      });
      const first = times.find(time => time > writtenAt);
      expect(first).toBeDefined();
      expect(first! - writtenAt).toBeGreaterThanOrEqual(500);
      expect(first! - writtenAt).toBeLessThanOrEqual(1_000);
    }
  });

  it('pings nothing once stopped, and nothing when the interval is 0', () => {
    expect(pingTimes(1_000, keepAlive => (keepAlive.stop(), jest.advanceTimersByTime(5_000)))).toEqual([]);
    expect(pingTimes(0, () => jest.advanceTimersByTime(5_000))).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('ticks for every stream of one interval on one timer, each pinged within an interval of its silence', () => {
    const pings = new Map<string, number[]>();
    const writer = (name: string) => ({ write: () => void pings.set(name, [...(pings.get(name) ?? []), Date.now() - start]) });
    const start = Date.now();
    const first = createKeepAlive(writer('first'), 1_000);
    jest.advanceTimersByTime(300);
    const second = createKeepAlive(writer('second'), 1_000);
    const third = createKeepAlive(writer('third'), 1_000);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(900);
    third.touch();
    jest.advanceTimersByTime(1_100);
    expect(pings.get('first')).toEqual([1_000, 2_000]);
    // Joined at 300 ms, between two ticks: the first ping after 700 ms of silence (at least half an interval, at most one).
    expect(pings.get('second')).toEqual([1_000, 2_000]);
    // Written to at 1,200 ms: pinged 800 ms later.
    expect(pings.get('third')).toEqual([1_000, 2_000]);
    first.stop();
    second.stop();
    expect(jest.getTimerCount()).toBe(1);
    third.stop();
    expect(jest.getTimerCount()).toBe(0);
  });
});
