import { evaluateTargets, formatComparison, formatResultTable, type BenchResult, type TargetResult } from '../../scripts/bench/format-bench-report.mjs';

const scenario = (rps: number, cpuUsPerRequest: number) => ({ rps, cpuUsPerRequest, p50Us: 1_000, p99Us: 4_000, failed: 0 });
const target = (label: string, json: [number, number], stream: [number, number], latencyP50Us: number): TargetResult => ({
  label,
  idleRssBytes: 100 * 1024 * 1024,
  scenarios: { json: scenario(...json), stream: scenario(...stream) },
  latency: { json: { p50Us: latencyP50Us, p99Us: latencyP50Us * 2 }, firstDelta: { p50Us: latencyP50Us + 100, p99Us: latencyP50Us * 3 } },
});
const floor = target('raw Node pass-through (floor)', [10_000, 50], [5_000, 100], 400);
const same = target('Signalbox, Chat -> Chat (same protocol)', [5_000, 200], [2_500, 300], 600);

/** A run without the Bedrock rows, as every run before `--bedrock` existed wrote it. */
const baseline: BenchResult = { commit: 'aaaaaaa', date: '2026-11-25T00:00:00.000Z', options: { store: 'sqlite' }, targets: { floor, same } };
/** A `--bedrock` run: the Messages and Bedrock rows beside the others. */
const withBedrock: BenchResult = {
  commit: 'bbbbbbb',
  date: '2026-11-27T00:00:00.000Z',
  options: { store: 'sqlite', bedrock: true },
  targets: {
    floor,
    same: target(same.label, [5_500, 180], [2_500, 300], 600),
    messages: target('Signalbox, Messages -> Messages (same protocol)', [4_000, 250], [2_000, 400], 650),
    bedrock: target('Signalbox, Messages -> Bedrock kind (SigV4, event stream)', [3_000, 350], [1_000, 800], 800),
  },
};

/** The comparison's row for `metric`: its previous value, its value now and the change. */
function comparisonRow(table: string, metric: string): string[] | undefined {
  const line = table.split('\n').find(row => row.startsWith(`| ${metric} |`));
  return line?.split('|').slice(2, -1).map(cell => cell.trim());
}

describe('the bench report with the Bedrock rows', () => {
  it('puts the Bedrock row in the table with its throughput and CPU against the floor and the latency it adds', () => {
    const row = formatResultTable(withBedrock)
      .split('\n')
      .find(line => line.startsWith('| Signalbox, Messages -> Bedrock kind'));

    expect(row?.split('|').slice(2, 10).map(cell => cell.trim())).toEqual(['3,000 (0.30)', '350 (7.00)', '1.00 / 4.00', '1,000 (0.20)', '800 (8.00)', 'n/a', 'n/a', '+400 / +800']);
  });

  it('compares with a baseline that has no Bedrock rows: their metrics have no previous value and no change, the others compare as before', () => {
    const table = formatComparison(baseline, withBedrock);

    expect(comparisonRow(table, 'bedrock json req/s')).toEqual(['-', '3000.0', '']);
    expect(comparisonRow(table, 'bedrock json CPU × floor')).toEqual(['-', '7.00', '']);
    expect(comparisonRow(table, 'bedrock c=1 json p50 µs')).toEqual(['-', '800.0', '']);
    expect(comparisonRow(table, 'messages stream CPU µs/req')).toEqual(['-', '400.0', '']);
    expect(comparisonRow(table, 'same json req/s')).toEqual(['5000.0', '5500.0', '+10.0 %']);
    expect(comparisonRow(table, 'same json CPU µs/req')).toEqual(['200.0', '180.0', '-10.0 %']);
  });

  it('compares a Bedrock run with a later run without them: their metrics have no value now', () => {
    const table = formatComparison(withBedrock, baseline);

    expect(comparisonRow(table, 'bedrock json req/s')).toEqual(['3000.0', '-', '']);
    expect(comparisonRow(table, 'same json req/s')).toEqual(['5500.0', '5000.0', '-9.1 %']);
  });
});

describe('the targets below the table', () => {
  const line = (result: BenchResult, start: string) => evaluateTargets(result).find(check => check.line.startsWith(start));

  it('asks SQLite runs for 0.75× the floor, 1.5× its CPU and +100 µs at concurrency 1', () => {
    const result: BenchResult = { ...baseline, targets: { floor, same: target(same.label, [7_500, 75], [4_500, 110], 499) } };

    expect(line(result, 'same-protocol JSON req/s')).toMatchObject({ line: 'same-protocol JSON req/s ≥ 0.75× floor', pass: true });
    expect(line(result, 'same-protocol JSON CPU')).toMatchObject({ line: 'same-protocol JSON CPU per request ≤ 1.5× floor', pass: true });
    expect(line(result, 'same-protocol added latency at c=1, p50')).toMatchObject({ line: 'same-protocol added latency at c=1, p50 ≤ 100 µs', pass: true });
    expect(line({ ...result, targets: { floor, same: target(same.label, [7_400, 76], [4_500, 110], 501) } }, 'same-protocol JSON CPU')?.pass).toBe(false);
  });

  it('asks PostgreSQL + Redis runs for 0.5× the floor and +300 µs at concurrency 1', () => {
    const result: BenchResult = { ...baseline, options: { store: 'postgres' }, targets: { floor, same: target(same.label, [5_000, 200], [2_500, 300], 700) } };

    expect(line(result, 'same-protocol JSON req/s')).toMatchObject({ line: 'same-protocol JSON req/s ≥ 0.5× floor (PostgreSQL + Redis)', pass: true });
    expect(line(result, 'same-protocol added latency at c=1, p50')).toMatchObject({ line: 'same-protocol added latency at c=1, p50 ≤ 300 µs (PostgreSQL + Redis)', pass: true });
    expect(line({ ...result, targets: { floor, same: target(same.label, [4_900, 200], [2_500, 300], 701) } }, 'same-protocol added latency at c=1, p50')?.pass).toBe(false);
  });
});
