import { GATEWAY_ERROR_CODES } from './error-codes';
import { GatewayError } from './gateway-error';
import { createUpstreamError, mapUpstreamStatus } from './upstream-error-from-status';
import { createValidationError } from './create-validation-error';

describe('GatewayError', () => {
  it('takes its status, source and retryability from the code table', () => {
    const error = new GatewayError({ code: 'INSUFFICIENT_BALANCE', message: 'Top up.' });
    expect([error.status, error.source, error.retryable]).toEqual([403, 'service', false]);
    expect(GatewayError.isInstance(error)).toBe(true);
    expect(GatewayError.isInstance(new Error('x'))).toBe(false);
  });

  it('wraps unknown throws as INTERNAL_ERROR keeping the cause', () => {
    const cause = new TypeError('boom');
    const error = GatewayError.from(cause);
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.cause).toBe(cause);
    expect(error.message).not.toContain('boom');
  });

  it('has a status for every code in the 4xx/5xx range', () => {
    for (const spec of Object.values(GATEWAY_ERROR_CODES)) {
      expect(spec.status).toBeGreaterThanOrEqual(400);
      expect(spec.status).toBeLessThan(600);
    }
  });
});

describe('mapUpstreamStatus', () => {
  it.each([
    [401, 'UPSTREAM_AUTH_FAILED'],
    [403, 'UPSTREAM_AUTH_FAILED'],
    [400, 'UPSTREAM_INVALID_REQUEST'],
    [404, 'UPSTREAM_FAILED'],
    [429, 'UPSTREAM_RATE_LIMITED'],
    [503, 'UPSTREAM_OVERLOADED'],
    [529, 'UPSTREAM_OVERLOADED'],
    [504, 'UPSTREAM_TIMEOUT'],
    [500, 'UPSTREAM_FAILED'],
  ])('maps %i to %s', (status, code) => {
    expect(mapUpstreamStatus(status)).toBe(code);
  });

  it("classifies stream errors by the upstream protocol's words in their type, else their code, when there is no status", () => {
    const failureWords = new Map([['busy_error', 'UPSTREAM_OVERLOADED'], ['too_fast', 'UPSTREAM_RATE_LIMITED']] as const);
    expect(createUpstreamError({ type: 'busy_error', message: 'Busy' }, { failureWords }).code).toBe('UPSTREAM_OVERLOADED');
    expect(createUpstreamError({ code: 'too_fast' }, { failureWords }).code).toBe('UPSTREAM_RATE_LIMITED');
    expect(createUpstreamError({ type: 'busy_error', code: 'too_fast' }, { failureWords }).code).toBe('UPSTREAM_OVERLOADED');
    expect(createUpstreamError({ type: 'requests', code: 'too_fast' }, { failureWords }).code).toBe('UPSTREAM_RATE_LIMITED');
    expect(createUpstreamError({ type: 'api_error', code: 'boom' }, { failureWords }).code).toBe('UPSTREAM_FAILED');
    expect(createUpstreamError({ type: 'busy_error' }).code).toBe('UPSTREAM_FAILED');
    expect(createUpstreamError({ type: 'busy_error', status: 500 }, { failureWords }).code).toBe('UPSTREAM_FAILED');
  });
});

describe('createValidationError', () => {
  it('names the first field path and counts the rest', () => {
    const error = createValidationError([
      { path: ['input', 0, 'content'], message: 'Invalid input' },
      { path: ['model'], message: 'Required' },
    ]);
    expect(error.param).toBe('input.0.content');
    expect(error.message).toBe('Invalid request: input.0.content: Invalid input (and 1 more issue).');
    expect(error.issues).toHaveLength(2);
  });
});
