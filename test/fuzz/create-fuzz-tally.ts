import type { RawResponse } from './send-raw-request';

/**
 * Counts what a fuzz file really ran: cases (one per property run, shrinking included) and the
 * statuses seen, so the summary printed in `afterAll` comes from the runs, not from the config.
 */
export function createFuzzTally(label: string) {
  let cases = 0;
  let failedOver500 = 0;
  const statuses = new Map<number, number>();
  return {
    /** Call once at the start of every property run. */
    countCase(): void {
      cases++;
    },
    /** Call for every answer received. */
    see(response: Pick<RawResponse, 'status'>): void {
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status >= 500) failedOver500++;
    },
    get cases(): number {
      return cases;
    },
    get over500(): number {
      return failedOver500;
    },
    summary(): string {
      const seen = [...statuses.entries()]
        .sort(([left], [right]) => left - right)
        .map(([status, count]) => `${status}×${count}`);
      return `fuzz ${label}: ${cases} cases, ${failedOver500} responses >= 500 (statuses ${seen.join(' ')})`;
    },
  };
}

/** A fuzz file's counter (see `createFuzzTally`). */
export type FuzzTally = ReturnType<typeof createFuzzTally>;
