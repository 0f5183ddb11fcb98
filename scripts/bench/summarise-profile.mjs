// Summarises a V8 CPU profile (`node --cpu-prof` writes one as a .cpuprofile file): self time by
// package (`packages/<name>`, `node_modules/<name>`, node internals, garbage collection, idle) and
// the functions with the most self time. Usage:
//   node scripts/bench/summarise-profile.mjs file.cpuprofile [--top=20]
import { readFileSync } from 'node:fs';

/** Where a profile node's code lives, as the package it belongs to. */
export function packageOf(callFrame) {
  const { url, functionName } = callFrame;
  if (!url) {
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return '(program: native, outside JavaScript)';
    return 'node internals';
  }
  if (url.startsWith('node:') || !/[\\/]/.test(url)) return 'node internals';
  if (url.startsWith('wasm:')) return 'wasm (undici\'s HTTP parser)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return `node_modules/${first.startsWith('@') ? `${first}/${second}` : first}`;
  }
  const workspace = /\/(packages|examples|scripts)\/([^/]+)\//.exec(url);
  return workspace ? `${workspace[1]}/${workspace[2]}` : url;
}

/** A source URL from the package folder or node_modules on (`packages/core/dist/…`), without the machine's path. */
function shortPath(url) {
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, 'node_modules/')
    .replace(/^.*?\/(packages|examples|scripts)\//, '$1/');
}

/**
 * Self time per node of `profile` in microseconds: each sample's interval (the next sample's
 * `timeDeltas` entry) goes to the node the sample hit.
 */
function selfTimes(profile) {
  const self = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  const average = samples.length > 1 ? (profile.endTime - profile.startTime) / samples.length : 0;
  for (let index = 0; index < samples.length; index++) {
    const interval = index + 1 < timeDeltas.length ? timeDeltas[index + 1] : average;
    self.set(samples[index], (self.get(samples[index]) ?? 0) + interval);
  }
  return self;
}

/**
 * `{ totalUs, busyUs, packages: [{ name, selfUs, share }], functions: [{ name, where, package,
 * selfUs, share }] }` of a parsed .cpuprofile; shares are of the busy time (all but idle), the
 * lists sorted by self time, `functions` cut to `top`.
 */
export function summariseProfile(profile, { top = 20 } = {}) {
  const self = selfTimes(profile);
  const packages = new Map();
  const functions = new Map();
  let totalUs = 0;
  let idleUs = 0;
  for (const node of profile.nodes) {
    const selfUs = self.get(node.id) ?? 0;
    if (selfUs === 0) continue;
    totalUs += selfUs;
    const name = packageOf(node.callFrame);
    if (name === '(idle)') idleUs += selfUs;
    packages.set(name, (packages.get(name) ?? 0) + selfUs);
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const where = url ? `${shortPath(url)}:${lineNumber + 1}:${columnNumber + 1}` : '';
    const key = `${functionName}@${where}`;
    const entry = functions.get(key) ?? { name: functionName || '(anonymous)', where, package: name, selfUs: 0 };
    entry.selfUs += selfUs;
    functions.set(key, entry);
  }
  const busyUs = totalUs - idleUs;
  const share = selfUs => (busyUs > 0 ? selfUs / busyUs : 0);
  return {
    totalUs,
    busyUs,
    packages: [...packages].map(([name, selfUs]) => ({ name, selfUs, share: name === '(idle)' ? Number.NaN : share(selfUs) })).sort((a, b) => b.selfUs - a.selfUs),
    functions: [...functions.values()]
      .filter(entry => entry.package !== '(idle)')
      .sort((a, b) => b.selfUs - a.selfUs)
      .slice(0, top)
      .map(entry => ({ ...entry, share: share(entry.selfUs) })),
  };
}

/**
 * The event loop's profile among those `--cpu-prof` wrote (one per thread, the store's worker threads
 * too): Node names each `CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile`, the main thread's id 0.
 */
export function mainThreadProfile(names) {
  return names.find(name => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
}

/** The summary as two Markdown tables. */
export function formatProfileSummary(summary) {
  const percent = value => (Number.isNaN(value) ? '' : `${(value * 100).toFixed(1)} %`);
  const ms = us => (us / 1000).toFixed(1);
  const lines = [`busy ${ms(summary.busyUs)} ms of ${ms(summary.totalUs)} ms sampled`, '', '| package | self ms | share of busy |', '|---|---|---|'];
  for (const entry of summary.packages) lines.push(`| ${entry.name} | ${ms(entry.selfUs)} | ${percent(entry.share)} |`);
  lines.push('', '| function | where | self ms | share of busy |', '|---|---|---|---|');
  for (const entry of summary.functions) lines.push(`| ${entry.name} | ${entry.where} | ${ms(entry.selfUs)} | ${percent(entry.share)} |`);
  return lines.join('\n');
}

// Run as a script (not imported, as the benchmark and the tests do).
if (process.argv[1]?.endsWith('summarise-profile.mjs')) {
  const file = process.argv.slice(2).find(argument => !argument.startsWith('--'));
  if (!file) {
    process.stderr.write('usage: node scripts/bench/summarise-profile.mjs file.cpuprofile [--top=20]\n');
    process.exit(2);
  }
  const top = Number(/^--top=(\d+)$/.exec(process.argv.find(argument => argument.startsWith('--top=')) ?? '')?.[1] ?? 20);
  console.log(formatProfileSummary(summariseProfile(JSON.parse(readFileSync(file, 'utf8')), { top })));
}
