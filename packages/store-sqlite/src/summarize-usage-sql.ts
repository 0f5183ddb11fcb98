import { USAGE_GROUP_EXPRESSIONS, type UsageGroupBy } from '@switchyard/accounts';

/**
 * The summary query over the rows `where` selects: totals per (bucket, group) with exact
 * nearest-rank latency percentiles. A window ranks each cell's latencies, and the value at rank
 * ceil(p × n / 100) (integer arithmetic: (p × n + 99) / 100) is picked in the same pass, so only
 * one row per cell leaves SQLite. Same definition as `nearestRankPercentile`. Buckets start at
 * `time - time % length` (`%` works on integers, whatever type the length was bound as).
 */
export function summarizeUsageSql(where: string, groupBy: UsageGroupBy | undefined): string {
  const group = groupBy ? USAGE_GROUP_EXPRESSIONS[groupBy] : 'NULL';
  return `
    WITH cells AS (
      SELECT time - time % :bucketMs AS bucket_start, ${group} AS grp,
        input_tokens, output_tokens, cost_micros, status, latency_ms
      FROM usage ${where}
    ), ranked AS (
      SELECT *,
        ROW_NUMBER() OVER (PARTITION BY bucket_start, grp ORDER BY latency_ms) AS latency_rank,
        COUNT(*) OVER (PARTITION BY bucket_start, grp) AS cell_size
      FROM cells
    )
    SELECT bucket_start, grp, COUNT(*) AS requests,
      SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens, SUM(cost_micros) AS cost_micros,
      SUM(status >= 400) AS errors,
      MAX(CASE WHEN latency_rank = (50 * cell_size + 99) / 100 THEN latency_ms END) AS p50,
      MAX(CASE WHEN latency_rank = (95 * cell_size + 99) / 100 THEN latency_ms END) AS p95
    FROM ranked
    GROUP BY bucket_start, grp
    ORDER BY bucket_start, grp`;
}
