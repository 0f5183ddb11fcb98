/** Whether each dependency answered: `ok`, `failed` (it rejected) or `timeout` (it did not answer in time). */
export type ReadinessReport = {
  ready: boolean;
  checks: Record<string, 'ok' | 'failed' | 'timeout'>;
};

export type ReadinessProbeOptions = {
  /** The dependencies to ask, by name (e.g. `store: () => store.ping()`). */
  checks: Readonly<Record<string, () => Promise<void>>>;
  /** How long each check may take. Default 2 s. */
  timeoutMs?: number;
  /** Told why a check failed (its error may name hosts; it never reaches the answer). */
  onFailure?: (name: string, error: unknown) => void;
};

/**
 * The answer to `GET /readyz`: asks every dependency at once, each within `timeoutMs`, and is ready
 * only when all answered. Unlike `/healthz` (the process runs), this says whether requests can be
 * served now, so a load balancer stops sending traffic to an instance whose database is gone.
 */
export function createReadinessProbe(options: ReadinessProbeOptions): () => Promise<ReadinessReport> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const ask = async (name: string, check: () => Promise<void>): Promise<[string, ReadinessReport['checks'][string]]> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'timeout'>(resolve => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([check().then(() => 'ok' as const), late]);
      if (outcome === 'timeout') options.onFailure?.(name, new Error(`no answer within ${timeoutMs} ms`));
      return [name, outcome];
    } catch (error) {
      options.onFailure?.(name, error);
      return [name, 'failed'];
    } finally {
      clearTimeout(timer);
    }
  };
  return async () => {
    const results = await Promise.all(Object.entries(options.checks).map(([name, check]) => ask(name, check)));
    return { ready: results.every(([, outcome]) => outcome === 'ok'), checks: Object.fromEntries(results) };
  };
}
