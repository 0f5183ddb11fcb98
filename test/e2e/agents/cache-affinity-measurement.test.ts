import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScenarioResult } from '../../../scripts/bench/cache-affinity-report.mjs';
import { runCli } from './agent-sandbox';

/**
 * A 3-turn smoke of scripts/bench/measure-cache-affinity.mjs (the example server's and the
 * simulator's dist, so after a build): real Claude Code and Codex sessions resumed turn after turn
 * through a pool of one and of three simulator keys, read back from the usage API.
 */
const SCRIPT = join(__dirname, '../../../scripts/bench/measure-cache-affinity.mjs');
/** About 20 s on the 2-core development machine; the script bounds each CLI run by its --timeout. */
const RUN_TIMEOUT_MS = 90_000;
jest.setTimeout(RUN_TIMEOUT_MS + 5_000);

type MeasuredResult = Extract<ScenarioResult, { error?: undefined }> & { egress: string[]; failures: unknown[] };

describe('measure-cache-affinity.mjs (3 turns, scenarios a and b)', () => {
  let folder: string;
  beforeAll(() => (folder = mkdtempSync(join(tmpdir(), 'signalbox-cache-affinity-smoke-'))));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps each agent session’s cache on one key and loses it when the pool spreads the turns, the ledger agreeing with the upstream', async () => {
    const out = join(folder, 'results.json');
    const run = await runCli(process.execPath, [SCRIPT, '--scenarios=a,b', '--turns=3', '--timeout=30', `--out=${out}`], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeoutMs: RUN_TIMEOUT_MS,
    });
    if (run.code !== 0) throw new Error(`the script failed (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
    const { results } = JSON.parse(readFileSync(out, 'utf8')) as { results: MeasuredResult[] };
    expect(results.map(result => `${result.agent} ${result.scenario}`)).toEqual(['claude a', 'claude b', 'codex a', 'codex b']);
    for (const result of results) {
      expect(result).toMatchObject({ turns: 3, failedTurns: 0, failures: [], egress: [], ledgerMatchesUpstream: true });
      expect(result.summary).toMatchObject({ requests: 3, failedRequests: 0 });
    }
    for (const agent of ['claude', 'codex']) {
      const [single, spread] = results.filter(result => result.agent === agent);
      expect(single!.summary.credentials).toEqual({ 'key-1': 3 });
      // Turns 2 and 3 read what the turn before wrote: most of their prompt.
      expect(single!.summary.cacheReadShare).toBeGreaterThan(0.5);
      expect(Object.keys(spread!.summary.credentials).sort()).toEqual(['key-1', 'key-2', 'key-3']);
      expect(spread!.summary.switches).toBe(2);
      expect(spread!.summary.cacheReadShare).toBeLessThan(single!.summary.cacheReadShare - 0.3);
    }
    expect(run.stdout).toContain('| claude | a: single credential | 3 / 0 | 3 |');
  });
});
