// What a switch costs: gateways that differ by one switch a user also has, each its own process,
// measured side by side in interleaved rounds like the main scenarios. Two sets: the middlewares (a
// route without pricing, so no balance hold and no charge; keys without limits; LOG_LEVEL=silent)
// and observability (metrics off, on, and tracing exported to a local OTLP/HTTP sink, every trace
// or one in ten).
import { createServer } from 'node:http';
import { SCENARIOS, requestFor } from './bench-scenarios.mjs';
import { startGateway } from './bench-servers.mjs';
import { measureLoadScenarios } from './measure-load-scenarios.mjs';

export const MIDDLEWARE_VARIANTS = [
  { name: 'everything on', switches: {} },
  { name: 'pricing off (no hold, no charge)', switches: { pricing: false } },
  { name: 'limits off (no rate, token, quota or concurrency limit)', switches: { limits: false } },
  { name: 'logging off (LOG_LEVEL=silent)', switches: { logLevel: 'silent' } },
  { name: 'pricing, limits and logging off', switches: { pricing: false, limits: false, logLevel: 'silent' } },
];

export const OBSERVABILITY_VARIANTS = [
  { name: 'metrics on (the default)', switches: {} },
  { name: 'metrics off (SIGNALBOX_METRICS=off)', switches: { environment: { SIGNALBOX_METRICS: 'off' } } },
  { name: 'metrics and tracing on (every span exported)', switches: ({ otlpURL }) => ({ environment: { OTEL_EXPORTER_OTLP_ENDPOINT: otlpURL } }) },
  {
    name: 'metrics and tracing on, 1 trace in 10 sampled (OTEL_TRACES_SAMPLER)',
    switches: ({ otlpURL }) => ({ environment: { OTEL_EXPORTER_OTLP_ENDPOINT: otlpURL, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' } }),
  },
];

/**
 * Starts one gateway per variant, measures `scenarios` (default same-protocol JSON) on each, stops
 * them; resolves with `[{ name, scenarios: { json: { rps, cpuUsPerRequest, p50Us, p99Us, failed } } }]`.
 * A variant's `switches` may be a function of `{ otlpURL }`: a local OTLP/HTTP sink that accepts and
 * discards what it is sent, started only when some variant asks for it.
 */
export async function measureVariants({ label, variants, scenarios = [['json', SCENARIOS.json]], folder, simulatorURL, key, storage, options, generator, log }) {
  const servers = [];
  const sink = variants.some(variant => typeof variant.switches === 'function') ? await startOtlpSink() : undefined;
  try {
    for (const [index, variant] of variants.entries()) {
      const switches = typeof variant.switches === 'function' ? variant.switches({ otlpURL: sink.url }) : variant.switches;
      servers.push(await startGateway(folder, `${label}-${index}`, simulatorURL, { key, storage, ...switches }));
    }
    const targets = Object.fromEntries(servers.map((server, index) => [variants[index].name, { server, request: scenario => requestFor('same', scenario, { key }) }]));
    const measured = await measureLoadScenarios({ targets, scenarios, options, generator, log: line => log(`${label} ${line}`) });
    if (sink) log(`${label}: the OTLP sink received ${sink.requests()} export requests`);
    return variants.map(({ name }) => ({ name, scenarios: Object.fromEntries(Object.entries(measured[name]).map(([scenario, figures]) => [scenario, pick(figures)])) }));
  } finally {
    await Promise.all(servers.map(server => server.stop()));
    sink?.close();
  }
}

const pick = ({ rps, cpuUsPerRequest, p50Us, p99Us, failed }) => ({ rps, cpuUsPerRequest, p50Us, p99Us, failed });

/** A local OTLP/HTTP receiver that reads each export, answers 200 and keeps only a count. */
async function startOtlpSink() {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, requests: () => requests, close: () => server.close() };
}

/** The variants as a Markdown table per scenario, with each one's CPU per request against the first. */
export function formatVariants(variants) {
  const [first] = variants;
  const tables = Object.keys(first.scenarios).map(scenario => {
    const lines = [`| ${scenario}, same protocol | req/s | CPU µs/req | CPU µs/req against "${first.name}" | p99 ms |`, '|---|---|---|---|---|'];
    const base = first.scenarios[scenario].cpuUsPerRequest;
    for (const variant of variants) {
      const { rps, cpuUsPerRequest, p99Us } = variant.scenarios[scenario];
      const change = variant === first ? '' : `${cpuUsPerRequest >= base ? '+' : ''}${Math.round(cpuUsPerRequest - base)} (${(((cpuUsPerRequest - base) / base) * 100).toFixed(0)} %)`;
      lines.push(`| ${variant.name} | ${Math.round(rps)} | ${Math.round(cpuUsPerRequest)} | ${change} | ${(p99Us / 1000).toFixed(2)} |`);
    }
    return lines.join('\n');
  });
  return tables.join('\n\n');
}
