import { GatewayError } from '@signalbox/core';
import { createManualSchedule } from '../testing';
import { createInterruptions, type ClientStop } from './create-interruptions';

/** A generation watched with `client`, its deadline 1 s away, counting the abort events its signal fires. */
function watchWithDeadline(client: ClientStop) {
  const timers = createManualSchedule();
  const interruption = createInterruptions({ now: () => 0, schedule: timers.schedule }).watch(0, client);
  interruption.setDeadline(1_000);
  let events = 0;
  interruption.signal.addEventListener('abort', () => (events += 1));
  return { timers, interruption, events: () => events };
}

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

  it('stops with the client’s reason when the client leaves first, and a later deadline changes nothing', () => {
    const client = new AbortController();
    const { timers, interruption, events } = watchWithDeadline(client.signal);
    expect(interruption.signal.aborted).toBe(false);
    const reason = new Error('client left');
    client.abort(reason);
    timers.advance(1_000);
    expect([interruption.signal.aborted, interruption.signal.reason, events()]).toEqual([true, reason, 1]);
  });

  it('stops with the deadline’s error when it passes first, and the client leaving later changes nothing', () => {
    const client = new AbortController();
    const { timers, interruption, events } = watchWithDeadline(client.signal);
    timers.advance(1_000);
    client.abort(new Error('client left'));
    const reason: unknown = interruption.signal.reason;
    expect([GatewayError.isInstance(reason) && reason.code, events()]).toEqual(['UPSTREAM_TIMEOUT', 1]);
  });

  it('is stopped from the start, with the client’s reason, when the client has already left', () => {
    const reason = new Error('already gone');
    const interruption = createInterruptions({ now: () => 0, schedule: createManualSchedule().schedule }).watch(0, AbortSignal.abort(reason));
    expect([interruption.signal.aborted, interruption.signal.reason]).toEqual([true, reason]);
  });

  it('keeps the client’s reason when a drain interrupts a generation whose client has left', async () => {
    const timers = createManualSchedule();
    const client = new AbortController();
    const interruptions = createInterruptions({ now: () => 0, schedule: timers.schedule });
    const left = interruptions.watch(0, client.signal);
    const staying = interruptions.watch(0, new AbortController().signal);
    const reason = new Error('client left');
    client.abort(reason);
    // The drain interrupts every open generation at once: the second's abort means the first's turn has passed too.
    staying.signal.addEventListener('abort', () => {
      left.release();
      staying.release();
    });
    const drained = interruptions.drain(0);
    timers.advance(0);
    await drained;
    const shutdown: unknown = staying.signal.reason;
    expect([left.signal.reason, GatewayError.isInstance(shutdown) && shutdown.code]).toEqual([reason, 'SHUTTING_DOWN']);
  });

  it('takes the transport’s controller as its own: the deadline aborts that controller with its error', () => {
    const client = new AbortController();
    const { timers, interruption, events } = watchWithDeadline(client);
    expect(interruption.signal).toBe(client.signal);
    timers.advance(1_000);
    client.abort(new Error('client left'));
    const reason: unknown = client.signal.reason;
    expect([GatewayError.isInstance(reason) && reason.code, events()]).toEqual(['UPSTREAM_TIMEOUT', 1]);
  });

  it('keeps the client’s reason on a controller the client aborted first, and cancels the deadline once released', () => {
    const client = new AbortController();
    const { timers, interruption } = watchWithDeadline(client);
    const reason = new Error('client left');
    client.abort(reason);
    interruption.release();
    expect([timers.waiting(), interruption.signal.reason]).toEqual([[], reason]);
  });
});
