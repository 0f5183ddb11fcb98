import {
  circuitAllows,
  circuitFailed,
  circuitState,
  circuitSucceeded,
  circuitTake,
  createCircuitBreaker,
  openCircuit,
  releaseProbe,
} from './circuit-breaker';

const T0 = 1_767_225_600_000;
const settings = { failures: 3, windowMs: 10_000, openMs: 30_000 };

describe('a circuit breaker', () => {
  it('opens on the Nth failure within the window, and lets nothing through until its open time has passed', () => {
    const breaker = createCircuitBreaker(settings);
    expect(circuitFailed(breaker, T0)).toBe(false);
    expect(circuitFailed(breaker, T0 + 4_000)).toBe(false);
    expect(circuitAllows(breaker, T0 + 4_000)).toBe(true);
    expect(circuitFailed(breaker, T0 + 9_000)).toBe(true);
    expect(circuitState(breaker, T0 + 9_000)).toBe('open');
    expect(circuitAllows(breaker, T0 + 9_000 + 29_999)).toBe(false);
    expect(breaker.openUntil).toBe(T0 + 39_000);
  });

  it('stays closed when the failures are spread wider than the window', () => {
    const breaker = createCircuitBreaker(settings);
    circuitFailed(breaker, T0);
    circuitFailed(breaker, T0 + 6_000);
    expect(circuitFailed(breaker, T0 + 10_001)).toBe(false);
    // The ring keeps the latest three: 6 000, 10 001 and now 12 000 fall within 10 s.
    expect(circuitFailed(breaker, T0 + 12_000)).toBe(true);
  });

  it('starts counting again after a success', () => {
    const breaker = createCircuitBreaker(settings);
    circuitFailed(breaker, T0);
    circuitFailed(breaker, T0 + 1);
    expect(circuitSucceeded(breaker, T0 + 2)).toBe(false);
    expect(circuitFailed(breaker, T0 + 3)).toBe(false);
    expect(circuitFailed(breaker, T0 + 4)).toBe(false);
    expect(circuitState(breaker, T0 + 4)).toBe('closed');
  });

  it('half-opens after the open time: one probe goes through, and its success closes the circuit', () => {
    const breaker = createCircuitBreaker({ ...settings, failures: 1 });
    expect(circuitFailed(breaker, T0)).toBe(true);
    const later = T0 + 30_000;
    expect(circuitState(breaker, later)).toBe('half-open');
    expect(circuitAllows(breaker, later)).toBe(true);
    circuitTake(breaker, later);
    expect(circuitAllows(breaker, later)).toBe(false);
    expect(circuitSucceeded(breaker, later + 50)).toBe(true);
    expect(circuitState(breaker, later + 50)).toBe('closed');
    expect(circuitAllows(breaker, later + 50)).toBe(true);
  });

  it('opens again for the open time when the probe fails', () => {
    const breaker = createCircuitBreaker({ ...settings, failures: 1 });
    circuitFailed(breaker, T0);
    circuitTake(breaker, T0 + 30_000);
    expect(circuitFailed(breaker, T0 + 31_000)).toBe(true);
    expect(circuitState(breaker, T0 + 31_000)).toBe('open');
    expect(breaker.openUntil).toBe(T0 + 61_000);
  });

  it('lets another request probe when the probe ended without a verdict', () => {
    const breaker = createCircuitBreaker({ ...settings, failures: 1 });
    circuitFailed(breaker, T0);
    circuitTake(breaker, T0 + 30_000);
    releaseProbe(breaker);
    expect(circuitAllows(breaker, T0 + 30_001)).toBe(true);
  });

  it('ignores what requests begun before it opened report while it is open', () => {
    const breaker = createCircuitBreaker({ ...settings, failures: 1 });
    circuitFailed(breaker, T0);
    expect(circuitFailed(breaker, T0 + 1_000)).toBe(false);
    expect(circuitSucceeded(breaker, T0 + 1_000)).toBe(false);
    expect(breaker.openUntil).toBe(T0 + 30_000);
  });

  it('keeps the later end when opened by another instance', () => {
    const breaker = createCircuitBreaker(settings);
    openCircuit(breaker, T0 + 5_000);
    openCircuit(breaker, T0 + 2_000);
    expect(breaker.openUntil).toBe(T0 + 5_000);
  });
});
