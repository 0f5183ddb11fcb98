import { GatewayError } from '@signalbox/core';
import { createConnectionGate } from './create-connection-gate';

/** Settles pending promise callbacks without moving the fake clock (`setImmediate` stays real). */
const flush = () => new Promise(resolve => setImmediate(resolve));

describe('createConnectionGate', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate'] }));
  afterEach(() => jest.useRealTimers());

  it('lets requests through at once below the limit and counts them', () => {
    const gate = createConnectionGate({ limit: 2, queueTimeoutMs: 100 });
    expect(gate.tryAcquire()).toBe(true);
    expect(gate.tryAcquire()).toBe(true);
    expect(gate.tryAcquire()).toBe(false);
    expect(gate.inFlight).toBe(2);
    gate.release();
    expect(gate.inFlight).toBe(1);
    expect(gate.tryAcquire()).toBe(true);
  });

  it('hands a released slot to the longest waiter, first come first served', async () => {
    const gate = createConnectionGate({ limit: 1, queueTimeoutMs: 1_000 });
    gate.tryAcquire();
    const served: string[] = [];
    const first = gate.waitForSlot().then(() => served.push('first'));
    const second = gate.waitForSlot().then(() => served.push('second'));
    expect(gate.waiting).toBe(2);
    gate.release();
    await first;
    expect(served).toEqual(['first']);
    expect(gate.inFlight).toBe(1);
    expect(gate.waiting).toBe(1);
    gate.release();
    await second;
    expect(served).toEqual(['first', 'second']);
    gate.release();
    expect(gate.inFlight).toBe(0);
  });

  it('refuses a waiter with a retryable UPSTREAM_OVERLOADED and Retry-After after the queue timeout', async () => {
    const gate = createConnectionGate({ limit: 1, queueTimeoutMs: 250 });
    gate.tryAcquire();
    let outcome: unknown;
    void gate.waitForSlot().then(() => (outcome = 'served'), error => (outcome = error));
    jest.advanceTimersByTime(249);
    await flush();
    expect(outcome).toBeUndefined();
    jest.advanceTimersByTime(1);
    await flush();
    expect(GatewayError.isInstance(outcome)).toBe(true);
    const failure = outcome as GatewayError;
    expect([failure.code, failure.status, failure.retryable, failure.retryAfterMs]).toEqual(['UPSTREAM_OVERLOADED', 503, true, 1_000]);
    expect(gate.waiting).toBe(0);
    expect(gate.inFlight).toBe(1);
  });

  it('refuses at once when the queue timeout is 0', async () => {
    const gate = createConnectionGate({ limit: 1, queueTimeoutMs: 0 });
    gate.tryAcquire();
    const failure = await gate.waitForSlot().catch(error => error);
    expect(GatewayError.isInstance(failure) && failure.code).toBe('UPSTREAM_OVERLOADED');
    expect(gate.waiting).toBe(0);
  });

  it('takes an aborted waiter out of the line without using a slot', async () => {
    const gate = createConnectionGate({ limit: 1, queueTimeoutMs: 1_000 });
    gate.tryAcquire();
    const controller = new AbortController();
    const aborted = gate.waitForSlot(controller.signal).catch(error => error);
    const next = gate.waitForSlot();
    controller.abort(new Error('client went away'));
    expect(((await aborted) as Error).message).toBe('client went away');
    expect(gate.waiting).toBe(1);
    gate.release();
    await next;
    expect(gate.inFlight).toBe(1);
    expect(gate.waiting).toBe(0);
  });

  it('refuses a waiter whose signal is already aborted', async () => {
    const gate = createConnectionGate({ limit: 1, queueTimeoutMs: 1_000 });
    gate.tryAcquire();
    const failure = await gate.waitForSlot(AbortSignal.abort(new Error('gone'))).catch(error => error);
    expect((failure as Error).message).toBe('gone');
    expect(gate.waiting).toBe(0);
  });
});
