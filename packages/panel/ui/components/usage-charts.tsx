import { useMemo } from 'preact/hooks';
import { formatMoney } from '../format';
import { BUCKET_SECONDS, TimeSeriesChart, type Series } from './time-series-chart';

/** One bucket of one group, as the usage summary API answers. */
export type SummaryRow = {
  bucketStart: string;
  group?: string | null;
  requests: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cost: number;
  cacheSavingsMicros: number;
  errors: number;
};

/** A usage summary answer: its range and bucket size, and the non-empty buckets. */
export type Summary = { bucket: 'minute' | 'hour' | 'day'; from: string; to: string; data: SummaryRow[] };

/**
 * A grouped summary as aligned columns: every bucket from the first with data to the last (empty
 * ones between as 0, so a quiet hour shows as a dip rather than being skipped; none before or after,
 * so a few minutes of requests fill the chart rather than a corner of an empty range) and one series per group.
 */
function pivot(
  summary: Summary | undefined,
  value: (row: SummaryRow) => number,
  keep: (row: SummaryRow) => boolean = () => true,
) {
  const kept = summary?.data.filter(keep) ?? [];
  if (!summary || kept.length === 0) return { times: [], series: [] };
  const step = BUCKET_SECONDS[summary.bucket];
  const starts = kept.map(row => Date.parse(row.bucketStart) / 1000);
  const first = starts.reduce((earliest, start) => Math.min(earliest, start));
  const last = starts.reduce((latest, start) => Math.max(latest, start));
  const times: number[] = [];
  for (let time = first; time <= last; time += step) times.push(time);
  const groups = [...new Set(kept.map(row => row.group ?? 'unknown'))];
  const series: Series[] = groups.map(group => {
    const values = new Map(
      kept
        .filter(row => (row.group ?? 'unknown') === group)
        .map(row => [Date.parse(row.bucketStart) / 1000, value(row)]),
    );
    return { label: group, values: times.map(time => values.get(time) ?? 0) };
  });
  return { times, series };
}

/** Requests and cost over time by model, and errors by status. */
export function UsageCharts({ byModel, byStatus }: { byModel?: Summary; byStatus?: Summary }) {
  const requests = useMemo(() => pivot(byModel, row => row.requests), [byModel]);
  const cost = useMemo(() => pivot(byModel, row => row.cost), [byModel]);
  const errors = useMemo(
    () =>
      pivot(
        byStatus,
        row => row.errors,
        row => Number(row.group) >= 400,
      ),
    [byStatus],
  );
  const bucket = byModel?.bucket ?? 'minute';
  return (
    <div class="charts">
      <TimeSeriesChart title="Requests by model" times={requests.times} bucket={bucket} series={requests.series} />
      <TimeSeriesChart title="Cost by model" times={cost.times} bucket={bucket} series={cost.series} format={formatMoney} />
      <TimeSeriesChart title="Errors by status" times={errors.times} bucket={byStatus?.bucket ?? bucket} series={errors.series} />
    </div>
  );
}
