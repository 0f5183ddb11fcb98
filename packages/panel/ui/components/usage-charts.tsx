import { useMemo } from 'preact/hooks';
import { formatMoney } from '../format';
import { TimeSeriesChart, type Series } from './time-series-chart';

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

const BUCKET_SECONDS = { minute: 60, hour: 3600, day: 86_400 } as const;

/**
 * A grouped summary as aligned columns: every bucket of the range (empty ones as 0, so a quiet
 * hour shows as a dip rather than being skipped) and one series per group.
 */
function pivot(
  summary: Summary | undefined,
  value: (row: SummaryRow) => number,
  keep: (row: SummaryRow) => boolean = () => true,
) {
  if (!summary) return { times: [], series: [] };
  const step = BUCKET_SECONDS[summary.bucket];
  const first = Math.floor(Date.parse(summary.from) / 1000 / step) * step;
  const last = Math.floor((Date.parse(summary.to) / 1000 - 1) / step) * step;
  const times: number[] = [];
  for (let time = first; time <= last; time += step) times.push(time);
  const kept = summary.data.filter(keep);
  const groups = [...new Set(kept.map(row => row.group ?? 'unknown'))];
  const series: Series[] = groups.map(group => {
    const values = new Map(
      kept
        .filter(row => (row.group ?? 'unknown') === group)
        .map(row => [Date.parse(row.bucketStart) / 1000, value(row)]),
    );
    return { label: group, values: times.map(time => values.get(time) ?? 0) };
  });
  return { times: series.length > 0 ? times : [], series };
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
  return (
    <div class="charts">
      <TimeSeriesChart title="Requests by model" times={requests.times} series={requests.series} />
      <TimeSeriesChart title="Cost by model" times={cost.times} series={cost.series} format={formatMoney} />
      <TimeSeriesChart title="Errors by status" times={errors.times} series={errors.series} />
    </div>
  );
}
