// What each middleware costs: gateways that differ by one switch a user also has (a route without
// pricing, so no balance hold and no charge; keys without limits; LOG_LEVEL=silent;
// SWITCHYARD_METRICS=off; tracing on, exporting to a local collector that keeps nothing), each its
// own process, measured on same-protocol JSON in interleaved rounds like the main scenarios.
import { SCENARIOS, requestFor } from './bench-scenarios.mjs';
import { startGateway, startTraceSink } from './bench-servers.mjs';
import { measureLoadScenarios } from './measure-load-scenarios.mjs';

export const MIDDLEWARE_VARIANTS = [
  { name: 'everything on', switches: {} },
  { name: 'pricing off (no hold, no charge)', switches: { pricing: false } },
  { name: 'limits off (no rate, token, quota or concurrency limit)', switches: { limits: false } },
  { name: 'logging off (LOG_LEVEL=silent)', switches: { logLevel: 'silent' } },
  { name: 'pricing, limits and logging off', switches: { pricing: false, limits: false, logLevel: 'silent' } },
  { name: 'metrics off (SWITCHYARD_METRICS=off)', switches: { metrics: false } },
  // Tracing is off unless an endpoint is configured: this row is its cost (a negative saving).
  { name: 'tracing on (OTLP/HTTP to a local sink)', switches: { tracing: true } },
];

/** Starts one gateway per variant, measures them, stops them; resolves with `[{ name, rps, cpuUsPerRequest, p99Us }]`. */
export async function measureMiddleware({ folder, simulatorURL, key, storage, options, generator, log }) {
  const servers = [];
  let sink;
  try {
    sink = await startTraceSink(folder);
    for (const [index, variant] of MIDDLEWARE_VARIANTS.entries()) {
      const { tracing, ...switches } = variant.switches;
      servers.push(await startGateway(folder, `middleware-${index}`, simulatorURL, { key, storage, ...switches, ...(tracing && { traceEndpoint: sink.url }) }));
    }
    const targets = Object.fromEntries(servers.map((server, index) => [MIDDLEWARE_VARIANTS[index].name, { server, request: scenario => requestFor('same', scenario, { key }) }]));
    const measured = await measureLoadScenarios({ targets, scenarios: [['json', SCENARIOS.json]], options, generator, log: line => log(`middleware ${line}`) });
    return MIDDLEWARE_VARIANTS.map(({ name }) => ({ name, ...pick(measured[name].json) }));
  } finally {
    await Promise.all(servers.map(server => server.stop()));
    await sink?.stop();
  }
}

const pick = ({ rps, cpuUsPerRequest, p50Us, p99Us, failed }) => ({ rps, cpuUsPerRequest, p50Us, p99Us, failed });

/** The variants as a Markdown table, with each one's CPU per request against everything on. */
export function formatMiddleware(variants) {
  const [all] = variants;
  const lines = ['| same-protocol JSON | req/s | CPU µs/req | CPU µs/req saved against everything on | p99 ms |', '|---|---|---|---|---|'];
  for (const variant of variants) {
    const saved = variant === all ? '' : `${Math.round(all.cpuUsPerRequest - variant.cpuUsPerRequest)} (${(((all.cpuUsPerRequest - variant.cpuUsPerRequest) / all.cpuUsPerRequest) * 100).toFixed(0)} %)`;
    lines.push(`| ${variant.name} | ${Math.round(variant.rps)} | ${Math.round(variant.cpuUsPerRequest)} | ${saved} | ${(variant.p99Us / 1000).toFixed(2)} |`);
  }
  return lines.join('\n');
}
