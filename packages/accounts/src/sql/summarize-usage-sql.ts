import type { UsageGroupBy, UsageSummaryRow } from '../usage/usage-ledger';
import { USAGE_GROUP_EXPRESSIONS } from './usage-filter-columns';

/**
 * The summary query over the rows `where` selects: totals per (bucket, group) with exact
 * nearest-rank latency percentiles, in SQL that SQLite and PostgreSQL both run. A window ranks each
 * cell's latencies, and the value at rank ceil(p × n / 100) (integer arithmetic: (p × n + 99) / 100)
 * is picked in the same pass, so only one row per cell leaves the database. Same definition as
 * `nearestRankPercentile`. Buckets start at `time - time % length`, the length bound at
 * `bucketParameter`; sums are cast back to integers (PostgreSQL sums BIGINT as NUMERIC).
 */
export function summarizeUsageSql(where: string, groupBy: UsageGroupBy | undefined, bucketParameter: string): string {
  const group = groupBy ? USAGE_GROUP_EXPRESSIONS[groupBy] : 'NULL';
  return `
    WITH cells AS (
      SELECT time - time % ${bucketParameter} AS bucket_start, ${group} AS grp,
        input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_micros, cache_savings_micros,
        status, latency_ms
      FROM usage ${where}
    ), ranked AS (
      SELECT *,
        ROW_NUMBER() OVER (PARTITION BY bucket_start, grp ORDER BY latency_ms) AS latency_rank,
        COUNT(*) OVER (PARTITION BY bucket_start, grp) AS cell_size
      FROM cells
    )
    SELECT bucket_start, grp, COUNT(*) AS requests,
      CAST(SUM(input_tokens) AS BIGINT) AS input_tokens, CAST(SUM(output_tokens) AS BIGINT) AS output_tokens,
      CAST(SUM(cache_read_tokens) AS BIGINT) AS cache_read_tokens,
      CAST(SUM(cache_write_tokens) AS BIGINT) AS cache_write_tokens,
      CAST(SUM(cost_micros) AS BIGINT) AS cost_micros,
      CAST(SUM(cache_savings_micros) AS BIGINT) AS cache_savings_micros,
      CAST(SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END) AS BIGINT) AS errors,
      MAX(CASE WHEN latency_rank = (50 * cell_size + 99) / 100 THEN latency_ms END) AS p50,
      MAX(CASE WHEN latency_rank = (95 * cell_size + 99) / 100 THEN latency_ms END) AS p95
    FROM ranked
    GROUP BY bucket_start, grp
    ORDER BY bucket_start, grp NULLS FIRST`;
}

/** A summary row as the query above returns it, as the `UsageSummaryRow` the ledger returns. */
export function toUsageSummaryRow(row: Record<string, unknown>): UsageSummaryRow {
  return {
    bucketStart: Number(row['bucket_start']),
    ...(row['grp'] !== null && { group: String(row['grp']) }),
    requests: Number(row['requests']),
    inputTokens: Number(row['input_tokens']),
    outputTokens: Number(row['output_tokens']),
    cacheReadTokens: Number(row['cache_read_tokens']),
    cacheWriteTokens: Number(row['cache_write_tokens']),
    costMicros: Number(row['cost_micros']),
    cacheSavingsMicros: Number(row['cache_savings_micros']),
    errors: Number(row['errors']),
    latencyP50Ms: Number(row['p50']),
    latencyP95Ms: Number(row['p95']),
  };
}
