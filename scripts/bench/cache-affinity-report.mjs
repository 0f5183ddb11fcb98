// The pure parts of measure-cache-affinity.mjs: its command line, the figures of one scenario
// from the gateway's usage rows, and the table they are printed in.

export const USAGE = `usage: node scripts/bench/measure-cache-affinity.mjs [options]
  --only=claude|codex     one agent CLI (default both)
  --scenarios=LIST        some of a, b, c, d (comma-separated; default all):
                            a  a single credential
                            b  a pool of 3, session affinity off
                            c  a pool of 3, session affinity on
                            d  as c, one credential revoked and another rate-limited halfway
  --turns=N               turns of each agent session (default 20, at least 2)
  --timeout=SECONDS       the longest one CLI run may take before it is killed (default 120)
  --out=FILE              also write the results as JSON`;

export const AGENTS = ['claude', 'codex'];
export const SCENARIOS = {
  a: 'single credential',
  b: 'pool of 3, affinity off',
  c: 'pool of 3, affinity on',
  d: 'pool of 3, affinity on, revoke + rate limit halfway',
};

const VALUED = ['--only', '--scenarios', '--turns', '--timeout', '--out'];

/** Options from `argv` (process.argv without node and the script); throws with the usage on a bad one. */
export function parseCacheAffinityArguments(argv) {
  const options = { agents: AGENTS, scenarios: Object.keys(SCENARIOS), turns: 20, timeoutMs: 120_000, out: undefined, help: false };
  for (const argument of argv) {
    const [flag, value] = argument.split(/=(.*)/s, 2);
    if (flag === '--help' || flag === '-h') {
      options.help = true;
      continue;
    }
    if (!VALUED.includes(flag)) fail(`unknown option ${argument}`);
    if (value === undefined || value === '') fail(`${flag} needs a value (${flag}=…)`);
    if (flag === '--only') options.agents = [oneOf(value, AGENTS, flag)];
    else if (flag === '--scenarios') options.scenarios = value.split(',').map(name => oneOf(name, Object.keys(SCENARIOS), flag));
    else if (flag === '--turns') options.turns = wholeNumber(value, flag, 2);
    else if (flag === '--timeout') options.timeoutMs = wholeNumber(value, flag, 1) * 1000;
    else options.out = value;
  }
  return options;
}

function wholeNumber(text, flag, minimum) {
  const number = Number(text);
  return Number.isInteger(number) && number >= minimum ? number : fail(`${flag}: a whole number of at least ${minimum}`);
}

function oneOf(given, allowed, flag) {
  return allowed.includes(given) ? given : fail(`${flag}: one of ${allowed.join(', ')} (not '${given}')`);
}

function fail(message) {
  throw new Error(`${message}\n${USAGE}`);
}

/**
 * The figures of one session from its usage rows (the gateway's `GET /admin/usage` rows, any order):
 * token sums, where `inputTokens` already include cache reads and writes, so the cache-read share
 * is reads over all input; the requests per credential; the moves: a request served by another
 * credential than the one before it, a request that took more than one attempt, and each warning
 * the rows carry, counted.
 */
export function summariseUsageRows(rows) {
  const ordered = [...rows].sort((left, right) => Date.parse(left.time) - Date.parse(right.time));
  const sum = field => ordered.reduce((total, row) => total + (row[field] ?? 0), 0);
  const credentials = {};
  const warnings = {};
  let switches = 0;
  let previous;
  for (const row of ordered) {
    const credential = row.upstreamCredential ?? null;
    if (credential !== null) credentials[credential] = (credentials[credential] ?? 0) + 1;
    if (credential !== null && previous !== undefined && credential !== previous) switches += 1;
    if (credential !== null) previous = credential;
    for (const warning of row.warnings ?? []) warnings[warning] = (warnings[warning] ?? 0) + 1;
  }
  const inputTokens = sum('inputTokens');
  const cacheReadTokens = sum('cacheReadTokens');
  return {
    requests: ordered.length,
    failedRequests: ordered.filter(row => row.status !== 200).length,
    inputTokens,
    cacheReadTokens,
    cacheWriteTokens: sum('cacheWriteTokens'),
    cacheReadShare: cacheReadShare(cacheReadTokens, inputTokens),
    credentials,
    switches,
    retried: ordered.filter(row => (row.attempts ?? 1) > 1).length,
    warnings,
  };
}

/**
 * Whether the ledger's sums are what the upstream itself counted (the simulator's per-key stats of
 * `GET /simulator/credentials`, over answered requests): input, cache reads and cache writes.
 */
export function ledgerMatchesUpstream(summary, upstreamCredentials) {
  const total = field => upstreamCredentials.reduce((sum, credential) => sum + credential.stats[field], 0);
  return ['inputTokens', 'cacheReadTokens', 'cacheWriteTokens'].every(field => total(field) === summary[field]);
}

/** Cache reads over all input tokens (reads and writes included), 0 without input. */
export function cacheReadShare(cacheReadTokens, inputTokens) {
  return inputTokens > 0 ? cacheReadTokens / inputTokens : 0;
}

const percent = share => `${(share * 100).toFixed(1)} %`;
const count = number => number.toLocaleString('en-US');

/**
 * The results as a Markdown table, one row per agent and scenario (`{ agent, scenario, turns,
 * failedTurns, summary, ledgerMatchesUpstream, note?, error? }`; a scenario that could not run
 * shows its error), then what the measurement is for: each share against the single credential's.
 */
export function formatCacheAffinityTable(results) {
  const header = '| agent | scenario | turns OK / failed | requests | input tokens | cache read | cache write | cache-read share | requests per credential | credential switches | retried | warnings | ledger = upstream |';
  const lines = [header, `|${'---|'.repeat(13)}`];
  for (const result of results) {
    const name = `${result.scenario}: ${SCENARIOS[result.scenario]}`;
    if (result.error !== undefined) {
      lines.push(`| ${result.agent} | ${name} | not run: ${result.error.replaceAll('|', '/')} |${' |'.repeat(10)}`);
      continue;
    }
    const { summary } = result;
    const perCredential = Object.entries(summary.credentials).map(([credential, requests]) => `${credential} ${requests}`).join(', ');
    const warnings = Object.entries(summary.warnings).map(([warning, times]) => `${warning} ×${times}`).join('; ');
    lines.push(
      `| ${result.agent} | ${name} | ${result.turns - result.failedTurns} / ${result.failedTurns} | ${summary.requests} | ${count(summary.inputTokens)} | ${count(summary.cacheReadTokens)} | ${count(summary.cacheWriteTokens)} | ${percent(summary.cacheReadShare)} | ${perCredential} | ${summary.switches} | ${summary.retried} | ${warnings.replaceAll('|', '/') || '—'} | ${result.ledgerMatchesUpstream ? 'yes' : 'NO'} |`,
    );
  }
  const notes = results.filter(result => result.note !== undefined).map(result => `${result.agent} ${result.scenario}: ${result.note}`);
  return [...lines, ...compareWithSingleCredential(results), ...notes].join('\n');
}

/** What each scenario is held to: c keeps a's share; d keeps every turn and records its move (a new key's cache is cold). */
const TARGETS = { c: ' (target: within 2 points)', d: ' (target: no failed turn, the move recorded)' };

/** For each agent with scenario a: every other scenario's share minus a's, in percentage points. */
function compareWithSingleCredential(results) {
  const lines = [];
  for (const agent of AGENTS) {
    const single = results.find(result => result.agent === agent && result.scenario === 'a' && result.summary !== undefined);
    if (single === undefined) continue;
    for (const result of results.filter(other => other.agent === agent && other.scenario !== 'a' && other.summary !== undefined)) {
      const points = (result.summary.cacheReadShare - single.summary.cacheReadShare) * 100;
      const target = TARGETS[result.scenario] ?? '';
      lines.push(`${agent} ${result.scenario} against a: ${points >= 0 ? '+' : ''}${points.toFixed(1)} points${target}`);
    }
  }
  return lines.length > 0 ? ['', ...lines] : [];
}
