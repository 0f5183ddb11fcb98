import { useMemo } from 'preact/hooks';
import { formatMoney } from '../format';
import { TimeSeriesChart, type Series } from './time-series-chart';

/** One bucket of one group, as the usage summary API answers. */
export type SummaryRow = { bucketStart: string; group?: string | null; requests: number; cost: number; errors: number };

/** Rows of a grouped summary as aligned columns: the bucket times, and one series per group. */
function pivot(rows: SummaryRow[], value: (row: SummaryRow) => number, keep: (row: SummaryRow) => boolean = () => true) {
  const kept = rows.filter(keep);
  const times = [...new Set(kept.map(row => Date.parse(row.bucketStart) / 1000))].sort((a, b) => a - b);
  const groups = [...new Set(kept.map(row => row.group ?? 'unknown'))];
  const series: Series[] = groups.map(group => ({
    label: group,
    values: times.map(time => {
      const row = kept.find(candidate => (candidate.group ?? 'unknown') === group && Date.parse(candidate.bucketStart) / 1000 === time);
      return row ? value(row) : 0;
    }),
  }));
  return { times, series };
}

/** Requests and cost over time by model, and errors by status. */
export function UsageCharts({ byModel, byStatus }: { byModel: SummaryRow[]; byStatus: SummaryRow[] }) {
  const requests = useMemo(() => pivot(byModel, row => row.requests), [byModel]);
  const cost = useMemo(() => pivot(byModel, row => row.cost), [byModel]);
  const errors = useMemo(() => pivot(byStatus, row => row.errors, row => Number(row.group) >= 400), [byStatus]);
  return (
    <div class="charts">
      <TimeSeriesChart title="Requests by model" times={requests.times} series={requests.series} />
      <TimeSeriesChart title="Cost by model" times={cost.times} series={cost.series} format={formatMoney} />
      <TimeSeriesChart title="Errors by status" times={errors.times} series={errors.series} />
    </div>
  );
}
