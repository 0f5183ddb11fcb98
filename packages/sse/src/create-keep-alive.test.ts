import { createKeepAlive } from './create-keep-alive';

/** The times (fake ms) at which pings were written while `run` advanced the clock. */
function pingTimes(intervalMs: number, run: (keepAlive: ReturnType<typeof createKeepAlive>) => void): number[] {
  const times: number[] = [];
  const start = Date.now();
  const keepAlive = createKeepAlive(frame => {
    expect(frame).toBe(': keep-alive\n\n');
    times.push(Date.now() - start);
  }, intervalMs);
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
});
