import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatAxisTime, formatCount, formatTime } from '../format';

export type Series = { label: string; values: (number | null)[] };

const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563', '#ca8a04'];

/** How long each bucket size of the usage summary is. */
export const BUCKET_SECONDS = { minute: 60, hour: 3600, day: 86_400 } as const;
/** Tick steps of a count axis: whole numbers only (1, 2, 5, 10, 20, 50, …). */
const WHOLE_INCREMENTS = Array.from({ length: 30 }, (_, index) => [1, 2, 5][index % 3]! * 10 ** Math.floor(index / 3));

type ChartProps = {
  title: string;
  /** Bucket starts in unix seconds, one per value of each series. */
  times: number[];
  bucket: 'minute' | 'hour' | 'day';
  series: Series[];
  /** How the values read, on the axis and in the table; default a count. */
  format?: (value: number) => string;
};

/**
 * A line chart over time (uPlot on a canvas), its axes in the panel's formats. The numbers are also
 * given as a table for screen readers.
 */
export function TimeSeriesChart(props: ChartProps) {
  const container = useRef<HTMLDivElement>(null);
  const format = props.format ?? formatCount;
  useEffect(() => {
    const element = container.current;
    if (!element || props.times.length === 0) return;
    const chart = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height: 220,
        // Room on the right for the last time label, which is centred on its tick.
        padding: [null, 32, null, null],
        series: [
          {},
          ...props.series.map((series, index) => ({
            label: series.label,
            stroke: PALETTE[index % PALETTE.length],
            width: 2,
            // A line needs two buckets: fewer show as dots.
            points: { show: props.times.length < 3 },
          })),
        ],
        axes: [
          {
            values: (_: uPlot, ticks: number[]) => ticks.map(tick => formatAxisTime(tick, props.bucket)),
            // Ticks on whole buckets, so no two read the same.
            incrs: WHOLE_INCREMENTS.map(count => count * BUCKET_SECONDS[props.bucket]),
          },
          { values: (_: uPlot, ticks: number[]) => ticks.map(format), size: 90, ...(!props.format && { incrs: WHOLE_INCREMENTS }) },
        ],
        scales: {
          x: { time: true, range: () => timeRange(props.times, props.bucket) },
          y: { range: (_: uPlot, _minimum: number, maximum: number) => [0, maximum > 0 ? maximum * 1.1 : 1] },
        },
        legend: { show: true, live: false },
      },
      [props.times, ...props.series.map(series => series.values)],
      element,
    );
    return () => chart.destroy();
  }, [props.times, props.series, props.bucket]);
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      {props.times.length === 0 ? (
        <p class="muted">No requests in this range.</p>
      ) : (
        <>
          <div ref={container} role="img" aria-label={props.title} />
          <ChartTable {...props} format={format} />
        </>
      )}
    </figure>
  );
}

/**
 * The time axis from the first bucket to the last; one bucket alone gets a bucket of room on each
 * side (uPlot would otherwise stretch a single time over a thousand days).
 */
function timeRange(times: readonly number[], bucket: keyof typeof BUCKET_SECONDS): [number, number] {
  const first = times[0]!;
  const last = times.at(-1)!;
  return first === last ? [first - BUCKET_SECONDS[bucket], last + BUCKET_SECONDS[bucket]] : [first, last];
}

/** The chart's numbers, one row per bucket, for screen readers (visually hidden). */
function ChartTable({ title, times, series, format }: ChartProps & { format: (value: number) => string }) {
  return (
    <table class="visually-hidden chart-data">
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Time</th>
          {series.map(entry => (
            <th scope="col" key={entry.label}>
              {entry.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {times.map((time, index) => (
          <tr key={time}>
            <th scope="row">{formatTime(new Date(time * 1000).toISOString())}</th>
            {series.map(entry => (
              <td key={entry.label}>{format(entry.values[index] ?? 0)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
