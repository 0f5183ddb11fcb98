// Types of cache-affinity-report.mjs, for the tests that import it.

export type Agent = 'claude' | 'codex';
export type Scenario = 'a' | 'b' | 'c' | 'd';
export type CacheAffinityOptions = { agents: Agent[]; scenarios: Scenario[]; turns: number; timeoutMs: number; out: string | undefined; help: boolean };
export type UsageRow = {
  time: string;
  status: number;
  upstreamCredential?: string | null;
  inputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  attempts?: number;
  warnings?: string[];
};
export type UsageSummary = {
  requests: number;
  failedRequests: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheReadShare: number;
  credentials: Record<string, number>;
  switches: number;
  retried: number;
  warnings: Record<string, number>;
};
export type UpstreamCredential = { name: string; stats: { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number } };
export type ScenarioResult =
  | { agent: Agent; scenario: Scenario; turns: number; failedTurns: number; summary: UsageSummary; ledgerMatchesUpstream: boolean; note?: string; error?: undefined }
  | { agent: Agent; scenario: Scenario; error: string; summary?: undefined };

export const USAGE: string;
export const AGENTS: Agent[];
export const SCENARIOS: Record<Scenario, string>;
export function parseCacheAffinityArguments(argv: readonly string[]): CacheAffinityOptions;
export function summariseUsageRows(rows: readonly UsageRow[]): UsageSummary;
export function ledgerMatchesUpstream(summary: UsageSummary, upstreamCredentials: readonly UpstreamCredential[]): boolean;
export function cacheReadShare(cacheReadTokens: number, inputTokens: number): number;
export function formatCacheAffinityTable(results: readonly ScenarioResult[]): string;
