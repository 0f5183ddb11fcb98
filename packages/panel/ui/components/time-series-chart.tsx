import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

export type Series = { label: string; values: (number | null)[] };

const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4b5563', '#ca8a04'];

/**
 * A line chart over time (uPlot on a canvas). `times` are unix seconds; each series has one value
 * per time. The numbers are also given as a table for screen readers.
 */
export function TimeSeriesChart(props: {
  title: string;
  times: number[];
  series: Series[];
  format?: (value: number) => string;
}) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element || props.times.length === 0) return;
    const format = props.format ?? ((value: number) => String(value));
    const chart = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height: 220,
        series: [
          {},
          ...props.series.map((series, index) => ({
            label: series.label,
            stroke: PALETTE[index % PALETTE.length],
            width: 2,
            points: { show: false },
          })),
        ],
        axes: [{}, { values: (_: uPlot, ticks: number[]) => ticks.map(format), size: 90 }],
        scales: {
          y: { range: (_: uPlot, _minimum: number, maximum: number) => [0, maximum > 0 ? maximum * 1.1 : 1] },
        },
        legend: { show: true, live: false },
      },
      [props.times, ...props.series.map(series => series.values)],
      element,
    );
    return () => chart.destroy();
  }, [props.times, props.series]);
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      {props.times.length === 0 ? (
        <p class="muted">No requests in this range.</p>
      ) : (
        <div ref={container} role="img" aria-label={props.title} />
      )}
    </figure>
  );
}
