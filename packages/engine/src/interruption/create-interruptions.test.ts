import { GatewayError } from '@signalbox/core';
import { createManualSchedule } from '../testing';
import { createInterruptions } from './create-interruptions';

describe('createInterruptions', () => {
  it('schedules a deadline from the request’s start, not from when its route was known', () => {
    const timers = createManualSchedule();
    const interruptions = createInterruptions({ now: () => 2_000, schedule: timers.schedule });
    const interruption = interruptions.watch(0);
    interruption.setDeadline(5_000);
    expect(timers.waiting()).toEqual([3_000]);
    timers.advance(3_000);
    expect(interruption.signal.aborted).toBe(true);
    const reason: unknown = interruption.signal.reason;
    expect(GatewayError.isInstance(reason) && [reason.code, reason.status]).toEqual(['UPSTREAM_TIMEOUT', 504]);
  });

  it('aborts at once a request whose deadline has already passed when its route becomes known', () => {
    const timers = createManualSchedule();
    const interruption = createInterruptions({ now: () => 9_000, schedule: timers.schedule }).watch(0);
    interruption.setDeadline(5_000);
    expect(timers.waiting()).toEqual([0]);
    timers.advance(0);
    expect(interruption.signal.aborted).toBe(true);
  });

  it('resolves a drain with nothing open at once and refuses every later request with 503 SHUTTING_DOWN', async () => {
    const timers = createManualSchedule();
    const interruptions = createInterruptions({ now: () => 0, schedule: timers.schedule });
    await interruptions.drain(10_000);
    expect(timers.waiting()).toEqual([]);
    expect(() => interruptions.watch(0)).toThrow(expect.objectContaining({ code: 'SHUTTING_DOWN', status: 503 }));
  });
});
