import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = join(__dirname, '../../examples/server/dist/start-example-server.js');

/**
 * Modules that only some configurations need: their drivers, their stores, the YAML parser, the
 * tracing SDK, the cloud kinds (loaded when a config names one) and their signing, framing and
 * auth libraries (loaded when a cloud upstream opens), ws (loaded at the first WebSocket upgrade),
 * the panel (built at its first request) and its OpenID Connect client (loaded when single sign-on
 * is configured) and the metrics' registry (prom-client, whose process CPU metric reads the active
 * span through `@opentelemetry/api` for its exemplars: loaded at the first scrape; the metrics' observer,
 * on by default, is loaded at start).
 */
const OPTIONAL = /node_modules\/(pg|ioredis|yaml|undici\/index\.js|@opentelemetry|prom-client|@smithy|@aws-sdk|@azure|google-auth-library|gaxios|ws\/|openid-client|oauth4webapi|jose)|store-postgres|limiter-redis|tracing-otel|metrics-prometheus|kind-(azure-openai|bedrock|vertex)\/|panel\/dist\//;
/** What the metrics, on by default, may load: their observer at start; prom-client and the OpenTelemetry API it requires at the first scrape. */
const METRICS = /^(prom-client\/|@opentelemetry\/api\/)|metrics-prometheus/;

/**
 * Starts the built example server in a fresh process on a data folder (with `configFile`, if
 * given), sends one request through it, and returns which optional modules that process loaded.
 */
function optionalModulesLoaded(configFile?: { name: string; text: string }, serverOptions: Record<string, unknown> = {}): string[] {
  if (!existsSync(dist)) throw new Error(`Build first (pnpm exec tsc -b): ${dist} is missing`);
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-modules-'));
  try {
    const configPath = configFile && join(folder, configFile.name);
    if (configFile && configPath) writeFileSync(configPath, configFile.text);
    const script = `
      const { startExampleServer } = require(${JSON.stringify(dist)});
      (async () => {
        const server = await startExampleServer({ port: 0, storage: { kind: 'data-directory', path: ${JSON.stringify(join(folder, 'data'))} }${configPath ? `, configPath: ${JSON.stringify(configPath)}` : ''}, ...${JSON.stringify(serverOptions)} });
        const answer = await fetch(server.url + '/healthz');
        if (answer.status !== 200) throw new Error('healthz answered ' + answer.status);
        const loaded = Object.keys(require.cache).filter(file => ${OPTIONAL}.test(file)).map(file => file.replace(/.*node_modules\\//, ''));
        process.stdout.write(JSON.stringify(loaded), () => process.exit(0));
        void server;
      })().catch(error => {
        process.stderr.write(String(error));
        process.exit(1);
      });
    `;
    const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', script], { encoding: 'utf8', timeout: 15_000, env: { PATH: process.env.PATH ?? '' } });
    if (result.status !== 0) throw new Error(`the server process failed: ${result.stderr}`);
    return JSON.parse(result.stdout) as string[];
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('what the example server loads at start', () => {
  it('loads no PostgreSQL, Redis, YAML, OpenTelemetry SDK, cloud kind, cloud SDK, WebSocket, panel or OpenID Connect module, nor undici\'s index, on a data folder with the embedded defaults: only the metrics\' observer, not yet prom-client', () => {
    const loaded = optionalModulesLoaded();
    expect(loaded.some(file => file.endsWith('metrics-prometheus/dist/create-metrics-observer.js'))).toBe(true);
    expect(loaded.filter(file => !file.includes('metrics-prometheus/dist/'))).toEqual([]);
  });

  it('loads neither prom-client nor any OpenTelemetry module with the metrics off (SIGNALBOX_METRICS=off)', () => {
    expect(optionalModulesLoaded(undefined, { metrics: { enabled: false } })).toEqual([]);
  });

  it('loads the YAML parser for a YAML config file, and still no PostgreSQL or Redis module', () => {
    const loaded = optionalModulesLoaded({ name: 'signalbox.yaml', text: 'upstreams:\n  sim:\n    protocol: openai-chat\n    baseURL: embedded:simulator/v1\nroutes:\n  - model: sim-via-chat\n    interfaces: [chat]\n    targets: [{ upstream: sim, model: sim-1 }]\n' });
    expect(loaded.some(file => file.startsWith('yaml/'))).toBe(true);
    expect(loaded.filter(file => !file.startsWith('yaml/') && !METRICS.test(file))).toEqual([]);
  });

  it('loads the OpenTelemetry SDK and the tracing observer for a config file with a tracing endpoint, and still no PostgreSQL or Redis module', () => {
    const loaded = optionalModulesLoaded({
      name: 'signalbox.json',
      text: JSON.stringify({
        upstreams: { sim: { protocol: 'openai-chat', baseURL: 'embedded:simulator/v1' } },
        routes: [{ model: 'sim-via-chat', interfaces: ['chat'], targets: [{ upstream: 'sim', model: 'sim-1' }] }],
        tracing: { endpoint: 'http://127.0.0.1:9' },
      }),
    });
    expect(loaded.some(file => file.startsWith('@opentelemetry/sdk-trace-base/'))).toBe(true);
    expect(loaded.some(file => file.startsWith('@opentelemetry/exporter-trace-otlp-http/'))).toBe(true);
    expect(loaded.some(file => file.includes('tracing-otel'))).toBe(true);
    expect(loaded.filter(file => !file.startsWith('@opentelemetry/') && !file.includes('tracing-otel') && !METRICS.test(file))).toEqual([]);
  });
});

/**
 * Runs `steps` (the body of an async function, which returns what the test reads) in a fresh Node
 * process, with `server` the built example server started on a fresh data folder (closed after) and
 * `loaded(pattern, prefix)` the loaded modules matching `pattern`, each path after `prefix`.
 */
function inServerProcess<Result>(steps: string): Result {
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-modules-'));
  try {
    const script = `
      const { startExampleServer } = require(${JSON.stringify(dist)});
      const loaded = (pattern, prefix) => Object.keys(require.cache).filter(file => pattern.test(file)).map(file => file.slice(file.lastIndexOf(prefix) + prefix.length));
      (async () => {
        const server = await startExampleServer({ port: 0, storage: { kind: 'data-directory', path: ${JSON.stringify(join(folder, 'data'))} } });
        const result = await (async () => { ${steps} })();
        await server.close(0);
        process.stdout.write(JSON.stringify(result), () => process.exit(0));
      })().catch(error => {
        process.stderr.write(String(error));
        process.exit(1);
      });
    `;
    const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', '-e', script], { encoding: 'utf8', timeout: 15_000, env: { PATH: process.env.PATH ?? '' } });
    if (result.status !== 0) throw new Error(`the server process failed: ${result.stderr}`);
    return JSON.parse(result.stdout) as Result;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A Chat Completions request with the demo key, in the server process's script, its answer read whole. */
const CHAT_REQUEST = `fetch(server.url + '/v1/chat/completions', {
  method: 'POST',
  headers: { authorization: 'Bearer ' + server.demoKey, 'content-type': 'application/json' },
  body: JSON.stringify({ model: server.models[0], messages: [{ role: 'user', content: 'Say hello' }] }),
})`;

/** The embedded simulator's answering modules: its protocols, request reading and prompt cache. */
const SIMULATOR_ANSWERING = /simulator\/dist\/(handle-request|responses-sse|messages-sse|chat-sse|gemini-protocol|read-request-body|prompt-cache)\.js$/;

describe('when the embedded simulator is loaded', () => {
  it('leaves its answering modules unloaded until its first request, then answers through them', () => {
    const { idle, status, content, answered } = inServerProcess<{ idle: string[]; status: number; content: unknown; answered: string[] }>(`
      const idle = loaded(${SIMULATOR_ANSWERING}, 'simulator/dist/');
      const answer = await ${CHAT_REQUEST};
      const body = await answer.json();
      return { idle, status: answer.status, content: body.choices?.[0]?.message?.content, answered: loaded(${SIMULATOR_ANSWERING}, 'simulator/dist/') };
    `);
    expect(idle).toEqual([]);
    expect(status).toBe(200);
    expect(typeof content === 'string' && content.length > 0).toBe(true);
    expect(answered).toEqual(expect.arrayContaining(['handle-request.js', 'read-request-body.js', 'prompt-cache.js']));
  });
});

/** prom-client's modules. */
const PROM_CLIENT = /node_modules\/prom-client\//;

describe('when the metrics are first scraped', () => {
  it('loads prom-client then, and the scrape counts the request made before it', () => {
    const { status, before, scrapeStatus, type, text, after } = inServerProcess<{ status: number; before: string[]; scrapeStatus: number; type: string; text: string; after: string[] }>(`
      const answer = await ${CHAT_REQUEST};
      await answer.arrayBuffer();
      const before = loaded(${PROM_CLIENT}, 'node_modules/');
      const scrape = await fetch(server.metricsURL, { headers: { authorization: 'Bearer ' + server.newAdminToken } });
      const text = await scrape.text();
      return { status: answer.status, before, scrapeStatus: scrape.status, type: scrape.headers.get('content-type'), text, after: loaded(${PROM_CLIENT}, 'node_modules/') };
    `);
    expect(status).toBe(200);
    expect(before).toEqual([]);
    expect(scrapeStatus).toBe(200);
    expect(type).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(text).toMatch(/^signalbox_requests_total\{interface="openai-chat",route="[^"]+",upstream="[^"]+",status="200",outcome="completed",code="none"\} 1$/m);
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(after).toContain('prom-client/index.js');
  });
});

/** The account panel's server side: its router, API, sessions and login throttle. */
const PANEL = /panel\/dist\/(create-panel|api\/create-panel-api|sessions\/create-session-store|security\/create-login-throttle)\.js$/;

describe('when the account panel is opened', () => {
  it('leaves the panel unloaded until its first request, then serves its login page and answers its API', () => {
    const { idle, pageStatus, html, loginStatus, cookie, opened } = inServerProcess<{ idle: string[]; pageStatus: number; html: string; loginStatus: number; cookie: string; opened: string[] }>(`
      const idle = loaded(${PANEL}, 'panel/dist/');
      const page = await fetch(server.url + '/panel/login');
      const html = await page.text();
      const login = await fetch(server.url + '/panel/api/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: server.url },
        body: JSON.stringify({ token: server.newAdminToken }),
      });
      return { idle, pageStatus: page.status, html, loginStatus: login.status, cookie: login.headers.get('set-cookie') ?? '', opened: loaded(${PANEL}, 'panel/dist/') };
    `);
    expect(idle).toEqual([]);
    expect(pageStatus).toBe(200);
    expect(html).toContain('/panel/assets/panel.js');
    expect(loginStatus).toBe(200);
    expect(cookie).not.toBe('');
    expect(opened).toEqual(expect.arrayContaining(['create-panel.js', 'api/create-panel-api.js', 'sessions/create-session-store.js']));
  });
});

describe('what a management command loads', () => {
  it('answers --help without loading Express, the engine, the codecs, the simulator or the logger', () => {
    const main = join(__dirname, '../../examples/server/dist/main.js');
    if (!existsSync(main)) throw new Error(`Build first (pnpm exec tsc -b): ${main} is missing`);
    const script = `
      process.argv = [process.argv[0], ${JSON.stringify(main)}, '--help'];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = () => true;
      require(${JSON.stringify(main)});
      setImmediate(() => write(JSON.stringify(Object.keys(require.cache).map(file => file.replace(/.*node_modules\\//, '')))));
    `;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000, env: { PATH: process.env.PATH ?? '' } });
    expect(result.status).toBe(0);
    const loaded = JSON.parse(result.stdout) as string[];
    expect(loaded.some(file => file.endsWith('run-cli.js'))).toBe(true);
    const server = /^(express|pino|undici)\/|engine\/dist|codec-|simulator\/dist|start-example-server/;
    expect(loaded.filter(file => server.test(file))).toEqual([]);
  });
});
