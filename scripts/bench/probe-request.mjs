// The request a client process of the benchmark (node-load.mjs, latency-probe.mjs,
// open-streams-probe.mjs) sends, handed over in its environment: BENCH_URL, BENCH_BODY and
// BENCH_HEADERS ("name: value" lines); wrk-post.lua reads BENCH_BODY and BENCH_HEADERS too.

/** `url`, `body` and `headers` (`{ name: value }`) as the environment variables a client process reads. */
export function probeRequestEnvironment(url, { body, headers }) {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join('\n');
  return { BENCH_URL: url, BENCH_BODY: body, BENCH_HEADERS: lines };
}

/** The request of this client process, from its environment: `{ url, body, headers }`, the JSON content type and length added. */
export function readProbeRequest() {
  const body = process.env.BENCH_BODY ?? '';
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
  for (const line of (process.env.BENCH_HEADERS ?? '').split('\n')) {
    const match = /^([^:]+):\s*(.*)$/.exec(line);
    if (match) headers[match[1]] = match[2];
  }
  return { url: process.env.BENCH_URL, body, headers };
}
