import { createReadinessProbe } from './create-readiness-probe';

describe('createReadinessProbe', () => {
  it('is ready when every check answers, and reports each by name', async () => {
    const probe = createReadinessProbe({ checks: { store: async () => undefined, limiter: async () => undefined } });
    await expect(probe()).resolves.toEqual({ ready: true, checks: { store: 'ok', limiter: 'ok' } });
  });

  it('is not ready when a check rejects or does not answer in time, and tells onFailure why (not the answer)', async () => {
    const failures: Array<[string, string]> = [];
    const probe = createReadinessProbe({
      checks: {
        store: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432')),
        limiter: () => new Promise<void>(() => undefined),
        other: async () => undefined,
      },
      timeoutMs: 5,
      onFailure: (name, error) => failures.push([name, (error as Error).message]),
    });
    const report = await probe();
    expect(report).toEqual({ ready: false, checks: { store: 'failed', limiter: 'timeout', other: 'ok' } });
    expect(JSON.stringify(report)).not.toContain('10.0.0.5');
    expect(failures).toEqual([
      ['store', 'connect ECONNREFUSED 10.0.0.5:5432'],
      ['limiter', 'no answer within 5 ms'],
    ]);
  });
});
