// The benchmark's printed report: one table of every target against the floor, the issue's
// targets as PASS/MISS lines, and the comparison with an earlier run's JSON.

const GATEWAYS = ['same', 'translated'];
const KiB = 1024;
const MiB = 1024 * 1024;

const thousands = value => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a');
const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const ms = us => fixed(us / 1000);
const signedUs = us => (Number.isFinite(us) ? `${us >= 0 ? '+' : ''}${Math.round(us)}` : 'n/a');

/** The value at `share` (0–1) of `values` once sorted; NaN when empty. */
export function percentile(values, share) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

/** The median of `values` (the mean of the middle two for an even count); NaN when empty. */
export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** One row per target: throughput and CPU per scenario with ratios to the floor, latency added at concurrency 1, memory. */
export function formatResultTable(result) {
  const floor = result.targets.floor;
  const cell = (target, scenario) => {
    const measured = target.scenarios?.[scenario];
    if (!measured) return ['n/a', 'n/a'];
    const base = floor.scenarios?.[scenario];
    const failed = measured.failed > 0 ? ` [${thousands(measured.failed)} failed]` : '';
    return [`${thousands(measured.rps)} (${fixed(measured.rps / base?.rps)})${failed}`, `${thousands(measured.cpuUsPerRequest)} (${fixed(measured.cpuUsPerRequest / base?.cpuUsPerRequest)})`];
  };
  const lines = [
    '| target | JSON req/s (× floor) | CPU µs/req (× floor) | JSON p50 / p99 ms | streams/s (× floor) | CPU µs/stream (× floor) | paced/s (× floor) | CPU µs/paced stream (× floor) | c=1 added p50 / p99 µs | first delta p50 ms (added) | KiB/open stream | idle RSS MiB |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, target] of Object.entries(result.targets)) {
    const json = target.scenarios?.json;
    const latency = target.latency ?? {};
    const added = name === 'floor' ? '0 / 0' : `${signedUs(latency.json?.p50Us - floor.latency?.json?.p50Us)} / ${signedUs(latency.json?.p99Us - floor.latency?.json?.p99Us)}`;
    const firstDelta = latency.firstDelta ? `${ms(latency.firstDelta.p50Us)} (${name === 'floor' ? '0' : signedUs(latency.firstDelta.p50Us - floor.latency?.firstDelta?.p50Us)} µs)` : 'n/a';
    const memory = target.memory ? `${fixed(target.memory.perStreamBytes / KiB, 1)}${target.memory.opened < target.memory.held ? ` (${target.memory.opened}/${target.memory.held} opened)` : ''}` : 'n/a';
    lines.push(
      `| ${target.label} | ${cell(target, 'json').join(' | ')} | ${json ? `${ms(json.p50Us)} / ${ms(json.p99Us)}` : 'n/a'} | ${cell(target, 'stream').join(' | ')} | ${cell(target, 'paced').join(' | ')} | ${added} | ${firstDelta} | ${memory} | ${target.idleRssBytes ? fixed(target.idleRssBytes / MiB, 0) : 'n/a'} |`,
    );
  }
  return lines.join('\n');
}

/** The issue's targets as `{ line, measured, goal, pass }`, for each gateway row that was measured. */
export function evaluateTargets(result) {
  const { floor, portkey } = result.targets;
  const checks = [];
  const check = (line, measured, goal, pass) => Number.isFinite(measured) && checks.push({ line, measured, goal, pass });
  const ratio = (value, base) => value / base;
  const postgres = result.options.store === 'postgres';
  for (const name of GATEWAYS) {
    const target = result.targets[name];
    if (!target) continue;
    const label = name === 'same' ? 'same-protocol' : 'translated';
    const json = target.scenarios?.json;
    const base = floor.scenarios?.json;
    if (json && base) {
      const share = postgres ? 0.5 : 0.75;
      const rps = ratio(json.rps, base.rps);
      check(`${label} JSON req/s ≥ ${share}× floor${postgres ? ' (PostgreSQL + Redis)' : ''}`, rps, `${fixed(rps)}×`, rps >= share);
      const cpu = ratio(json.cpuUsPerRequest, base.cpuUsPerRequest);
      check(`${label} JSON CPU per request ≤ 1.5× floor`, cpu, `${fixed(cpu)}×`, cpu <= 1.5);
      const p99 = ratio(json.p99Us, base.p99Us);
      check(`${label} JSON p99 under load ≤ 2× floor`, p99, `${fixed(p99)}× (${ms(json.p99Us)} ms)`, p99 <= 2);
      if (portkey?.scenarios?.json) {
        const peer = ratio(json.rps, portkey.scenarios.json.rps);
        check(`${label} JSON req/s ≥ 4× Portkey`, peer, `${fixed(peer)}×`, peer >= 4);
      }
    }
    if (target.scenarios?.stream && floor.scenarios?.stream) {
      const streams = ratio(target.scenarios.stream.rps, floor.scenarios.stream.rps);
      check(`${label} 20-delta streams/s ≥ 0.9× floor`, streams, `${fixed(streams)}×`, streams >= 0.9);
    }
    if (target.scenarios?.paced && floor.scenarios?.paced) {
      const paced = ratio(target.scenarios.paced.cpuUsPerRequest, floor.scenarios.paced.cpuUsPerRequest);
      check(`${label} paced streams CPU ≤ 1.1× floor`, paced, `${fixed(paced)}×`, paced <= 1.1);
    }
    const latency = target.latency;
    if (latency?.json && floor.latency?.json) {
      const p50 = latency.json.p50Us - floor.latency.json.p50Us;
      const p99 = latency.json.p99Us - floor.latency.json.p99Us;
      const addedP50 = postgres ? 300 : 100;
      check(`${label} added latency at c=1, p50 ≤ ${addedP50} µs${postgres ? ' (PostgreSQL + Redis)' : ''}`, p50, `${signedUs(p50)} µs`, p50 <= addedP50);
      check(`${label} added latency at c=1, p99 ≤ 300 µs`, p99, `${signedUs(p99)} µs`, p99 <= 300);
    }
    if (latency?.firstDelta && floor.latency?.firstDelta) {
      const added = latency.firstDelta.p50Us - floor.latency.firstDelta.p50Us;
      check(`${label} first delta ≤ floor + 0.2 ms (p50)`, added, `${signedUs(added)} µs`, added <= 200);
    }
    if (latency?.spaced) {
      const { coalesced, count } = latency.spaced;
      const floorSpaced = floor.latency?.spaced;
      const context = floorSpaced ? ` (floor: ${floorSpaced.coalesced} of ${floorSpaced.count})` : '';
      check(`${label} first delta never coalesced with the next`, coalesced, `${coalesced} of ${count}${context}`, coalesced === 0 && count > 0);
    }
    if (target.memory) {
      const perStream = target.memory.perStreamBytes / KiB;
      check(`${label} ≤ 80 KiB per open stream`, perStream, `${fixed(perStream, 1)} KiB`, perStream <= 80);
      const { opened, held, failed } = target.memory;
      check(`${label} ${thousands(held)} concurrent streams without errors`, opened, `${thousands(opened)} opened, ${thousands(failed)} failed`, opened === held && failed === 0);
    }
  }
  const gateway = result.targets.same ?? result.targets.translated;
  if (gateway?.idleRssBytes) check('gateway idle RSS ≤ 90 MiB', gateway.idleRssBytes / MiB, `${fixed(gateway.idleRssBytes / MiB, 0)} MiB`, gateway.idleRssBytes / MiB <= 90);
  return checks;
}

/** The checks as one Markdown table. */
export function formatChecks(checks) {
  return ['| target | measured | |', '|---|---|---|', ...checks.map(({ line, goal, pass }) => `| ${line} | ${goal} | ${pass ? 'PASS' : 'MISS'} |`)].join('\n');
}

/** Every number of a result under a readable name, for the comparison. */
function flatten(result) {
  const values = new Map();
  for (const [name, target] of Object.entries(result.targets ?? {})) {
    for (const [scenario, measured] of Object.entries(target.scenarios ?? {})) {
      const base = result.targets.floor?.scenarios?.[scenario];
      values.set(`${name} ${scenario} req/s`, measured.rps);
      if (name !== 'floor' && base) values.set(`${name} ${scenario} req/s × floor`, measured.rps / base.rps);
      values.set(`${name} ${scenario} CPU µs/req`, measured.cpuUsPerRequest);
      if (name !== 'floor' && base) values.set(`${name} ${scenario} CPU × floor`, measured.cpuUsPerRequest / base.cpuUsPerRequest);
      values.set(`${name} ${scenario} p50 µs`, measured.p50Us);
      values.set(`${name} ${scenario} p99 µs`, measured.p99Us);
    }
    for (const [kind, measured] of Object.entries(target.latency ?? {})) {
      if (measured.p50Us !== undefined) values.set(`${name} c=1 ${kind} p50 µs`, measured.p50Us);
      if (measured.p99Us !== undefined) values.set(`${name} c=1 ${kind} p99 µs`, measured.p99Us);
    }
    if (target.memory) values.set(`${name} bytes/open stream`, target.memory.perStreamBytes);
    if (target.idleRssBytes) values.set(`${name} idle RSS MiB`, target.idleRssBytes / MiB);
  }
  for (const [set, variants] of [['middleware', result.middleware], ['observability', result.observability]]) {
    for (const variant of variants ?? []) {
      // Results written before variants had scenarios hold the JSON figures flat.
      const scenarios = variant.scenarios ?? { json: variant };
      for (const [scenario, measured] of Object.entries(scenarios)) values.set(`${set}: ${variant.name} ${scenario} CPU µs/req`, measured.cpuUsPerRequest);
    }
  }
  return values;
}

/** `previous` and `current` side by side, metric by metric, with the change in percent. */
export function formatComparison(previous, current) {
  const before = flatten(previous);
  const after = flatten(current);
  const lines = [`previous: ${previous.commit ?? '?'} at ${previous.date ?? '?'}; now: ${current.commit} at ${current.date}`, '', '| metric | previous | now | change |', '|---|---|---|---|'];
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const [old, now] = [before.get(name), after.get(name)];
    const change = Number.isFinite(old) && Number.isFinite(now) && old !== 0 ? `${now >= old ? '+' : ''}${fixed(((now - old) / old) * 100, 1)} %` : '';
    const digits = name.includes('× floor') ? 2 : 1;
    lines.push(`| ${name} | ${Number.isFinite(old) ? fixed(old, digits) : '-'} | ${Number.isFinite(now) ? fixed(now, digits) : '-'} | ${change} |`);
  }
  return lines.join('\n');
}
