import {
  cacheReadShare,
  formatCacheAffinityTable,
  ledgerMatchesUpstream,
  parseCacheAffinityArguments,
  summariseUsageRows,
  type ScenarioResult,
  type UsageRow,
} from '../../scripts/bench/cache-affinity-report.mjs';

const row = (second: number, upstreamCredential: string, tokens: { input: number; read: number; write: number }, extra: Partial<UsageRow> = {}): UsageRow => ({
  time: `2026-01-01T00:00:${String(second).padStart(2, '0')}.000Z`,
  status: 200,
  upstreamCredential,
  inputTokens: tokens.input,
  cacheReadTokens: tokens.read,
  cacheWriteTokens: tokens.write,
  attempts: 1,
  warnings: [],
  ...extra,
});

describe('parseCacheAffinityArguments', () => {
  it('defaults to both agents, every scenario, 20 turns and two minutes per CLI run', () => {
    expect(parseCacheAffinityArguments([])).toEqual({ agents: ['claude', 'codex'], scenarios: ['a', 'b', 'c', 'd'], turns: 20, timeoutMs: 120_000, out: undefined, help: false });
  });

  it('reads --only, --scenarios, --turns, --timeout and --out', () => {
    const options = parseCacheAffinityArguments(['--only=codex', '--scenarios=a,b', '--turns=3', '--timeout=30', '--out=results.json']);
    expect(options).toEqual({ agents: ['codex'], scenarios: ['a', 'b'], turns: 3, timeoutMs: 30_000, out: 'results.json', help: false });
  });

  it.each([
    [['--only=cursor'], '--only: one of claude, codex'],
    [['--scenarios=a,e'], "--scenarios: one of a, b, c, d (not 'e')"],
    [['--turns=1'], '--turns: a whole number of at least 2'],
    [['--turns=2.5'], '--turns: a whole number of at least 2'],
    [['--timeout=0'], '--timeout: a whole number of at least 1'],
    [['--out'], '--out needs a value'],
    [['--rounds=3'], 'unknown option --rounds=3'],
  ])('refuses %j with the usage', (argv, message) => {
    expect(() => parseCacheAffinityArguments(argv)).toThrow(message);
    expect(() => parseCacheAffinityArguments(argv)).toThrow('usage: node scripts/bench/measure-cache-affinity.mjs');
  });
});

describe('summariseUsageRows', () => {
  it('sums the tokens, shares cache reads over all input (writes included) and counts the moves in time order', () => {
    // Given newest first, as the usage API lists them.
    const rows = [
      row(4, 'key-2', { input: 1_300, read: 1_200, write: 100 }, { warnings: ['moved'] }),
      row(3, 'key-2', { input: 1_200, read: 0, write: 1_200 }, { attempts: 2, warnings: ['moved'] }),
      row(2, 'key-1', { input: 1_100, read: 1_000, write: 100 }),
      row(1, 'key-1', { input: 1_000, read: 0, write: 1_000 }),
    ];
    expect(summariseUsageRows(rows)).toEqual({
      requests: 4,
      failedRequests: 0,
      inputTokens: 4_600,
      cacheReadTokens: 2_200,
      cacheWriteTokens: 2_400,
      cacheReadShare: 2_200 / 4_600,
      credentials: { 'key-1': 2, 'key-2': 2 },
      switches: 1,
      retried: 1,
      warnings: { moved: 2 },
    });
  });

  it('counts a failed request and leaves a row without a credential out of the switches', () => {
    const rows = [row(1, 'key-1', { input: 10, read: 0, write: 10 }), { ...row(2, 'key-1', { input: 0, read: 0, write: 0 }), status: 503, upstreamCredential: null }, row(3, 'key-1', { input: 20, read: 10, write: 10 })];
    const summary = summariseUsageRows(rows);
    expect(summary).toMatchObject({ requests: 3, failedRequests: 1, switches: 0, credentials: { 'key-1': 2 } });
  });

  it('gives a share of 0 without input', () => {
    expect(cacheReadShare(0, 0)).toBe(0);
    expect(summariseUsageRows([]).cacheReadShare).toBe(0);
  });
});

describe('ledgerMatchesUpstream', () => {
  const summary = summariseUsageRows([row(1, 'key-1', { input: 1_000, read: 0, write: 1_000 }), row(2, 'key-2', { input: 1_100, read: 1_000, write: 100 })]);
  const stats = (inputTokens: number, cacheReadTokens: number, cacheWriteTokens: number) => ({ inputTokens, cacheReadTokens, cacheWriteTokens });

  it('holds when the keys together counted the same input, reads and writes', () => {
    expect(ledgerMatchesUpstream(summary, [{ name: 'key-1', stats: stats(1_000, 0, 1_000) }, { name: 'key-2', stats: stats(1_100, 1_000, 100) }])).toBe(true);
  });

  it('fails on any difference', () => {
    expect(ledgerMatchesUpstream(summary, [{ name: 'key-1', stats: stats(1_000, 0, 1_000) }, { name: 'key-2', stats: stats(1_100, 999, 101) }])).toBe(false);
  });
});

describe('formatCacheAffinityTable', () => {
  const single = summariseUsageRows([row(1, 'key-1', { input: 1_000, read: 0, write: 1_000 }), row(2, 'key-1', { input: 1_000, read: 900, write: 100 })]);
  const spread = summariseUsageRows([row(1, 'key-1', { input: 1_000, read: 0, write: 1_000 }), row(2, 'key-2', { input: 1_000, read: 0, write: 1_000 })]);
  const results: ScenarioResult[] = [
    { agent: 'claude', scenario: 'a', turns: 2, failedTurns: 0, summary: single, ledgerMatchesUpstream: true },
    { agent: 'claude', scenario: 'b', turns: 2, failedTurns: 1, summary: spread, ledgerMatchesUpstream: false, note: 'ran without the key' },
    { agent: 'claude', scenario: 'c', error: 'session affinity not available: unknown field | sessionAffinity' },
  ];

  it('prints a row per scenario, a line per comparison with the single credential, then the notes', () => {
    expect(formatCacheAffinityTable(results).split('\n')).toEqual([
      '| agent | scenario | turns OK / failed | requests | input tokens | cache read | cache write | cache-read share | requests per credential | credential switches | retried | warnings | ledger = upstream |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      '| claude | a: single credential | 2 / 0 | 2 | 2,000 | 900 | 1,100 | 45.0 % | key-1 2 | 0 | 0 | — | yes |',
      '| claude | b: pool of 3, affinity off | 1 / 1 | 2 | 2,000 | 0 | 2,000 | 0.0 % | key-1 1, key-2 1 | 1 | 0 | — | NO |',
      '| claude | c: pool of 3, affinity on | not run: session affinity not available: unknown field / sessionAffinity | | | | | | | | | | |',
      '',
      'claude b against a: -45.0 points',
      'claude b: ran without the key',
    ]);
  });

  it('holds scenario c to the target of 2 points, and d to no failed turn and its move recorded', () => {
    const onTarget = summariseUsageRows([row(1, 'key-1', { input: 1_000, read: 0, write: 1_000 }), row(2, 'key-1', { input: 1_000, read: 890, write: 110 })]);
    const kept = { agent: 'claude', scenario: 'c', turns: 2, failedTurns: 0, summary: onTarget, ledgerMatchesUpstream: true } as const;
    const table = formatCacheAffinityTable([results[0]!, kept, { ...kept, scenario: 'd' }]);
    expect(table.split('\n').slice(-2)).toEqual([
      'claude c against a: -0.5 points (target: within 2 points)',
      'claude d against a: -0.5 points (target: no failed turn, the move recorded)',
    ]);
  });
});
