// Types of format-bench-report.mjs, for the tests that import it.

export type ScenarioSummary = { rps: number; cpuUsPerRequest: number; p50Us: number; p99Us: number; failed: number; [field: string]: unknown };
export type LatencySummary = { p50Us: number; p99Us: number; count?: number; failed?: number };
export type TargetResult = {
  label: string;
  idleRssBytes?: number;
  scenarios?: Record<string, ScenarioSummary>;
  latency?: { json?: LatencySummary; firstDelta?: LatencySummary; spaced?: { coalesced: number; count: number } };
  memory?: { perStreamBytes: number; opened: number; held: number; failed: number };
};
export type BenchResult = {
  commit?: string;
  date?: string;
  options: { store: string; [option: string]: unknown };
  targets: Record<string, TargetResult>;
  [field: string]: unknown;
};
export type Check = { line: string; measured: number; goal: string; pass: boolean };

export function percentile(values: number[], share: number): number;
export function median(values: number[]): number;
export function formatResultTable(result: BenchResult): string;
export function evaluateTargets(result: BenchResult): Check[];
export function formatChecks(checks: Check[]): string;
export function formatComparison(previous: BenchResult, current: BenchResult): string;
