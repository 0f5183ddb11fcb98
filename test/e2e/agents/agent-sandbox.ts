import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throwaway world for one agent CLI: its own HOME, working directory, temp and config folders. */
export type AgentSandbox = {
  root: string;
  home: string;
  cwd: string;
  tmp: string;
  /** A folder for the CLI's own config (Codex's `CODEX_HOME`). */
  config: string;
  remove(): void;
};

/** Creates the folders of an `AgentSandbox` under the system temp folder. */
export function createAgentSandbox(prefix: string): AgentSandbox {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const folders = { home: join(root, 'home'), cwd: join(root, 'work'), tmp: join(root, 'tmp'), config: join(root, 'config') };
  for (const folder of Object.values(folders)) mkdirSync(folder, { recursive: true });
  return { root, ...folders, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * A proxy on 127.0.0.1 that refuses everything and remembers what was asked of it. The CLIs get it as
 * `HTTP_PROXY`/`HTTPS_PROXY` (with `NO_PROXY` for 127.0.0.1), so any call they try to make beyond
 * loopback — telemetry, update checks, model lists — lands here instead of the internet, and a test
 * can assert that there was none.
 */
export type EgressTrap = { url: string; attempts: string[]; close(): Promise<void> };

export async function startEgressTrap(): Promise<EgressTrap> {
  const attempts: string[] = [];
  const refuse = (request: IncomingMessage) => attempts.push(`${request.method} ${request.url}`);
  const server: Server = createServer((request, response) => {
    refuse(request);
    response.writeHead(403).end();
  });
  server.on('connect', (request: IncomingMessage, socket) => {
    refuse(request);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    attempts,
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What one CLI test has to itself: its gateway, its egress trap and its sandbox. */
export type AgentWorld<Server> = { server: Server; trap: EgressTrap; sandbox: AgentSandbox };

/**
 * Runs `body` in a world of its own (the gateway `startServer` starts, an egress trap, a sandbox
 * whose working folder holds `files`), then closes it all. Nothing is shared: the gateway's request
 * log, simulator and ledger are the test's, and so are the CLI's HOME and config (two runs of a CLI
 * in one config folder at once can wait on each other until killed). So the tests of a file can
 * run side by side (`it.concurrent`), one CLI's start-up overlapping another's waits, at most
 * `AGENT_WORLDS_AT_ONCE` of them: more would only share the same cores, and starve the CLI runs of
 * other files. Fails if the CLI tried to reach anything beyond loopback.
 */
export function inAgentWorld<Server extends { close(graceMs?: number): Promise<void> }, Result>(
  options: { prefix: string; startServer: () => Promise<Server>; files?: Record<string, string> },
  body: (world: AgentWorld<Server>) => Promise<Result>,
): Promise<Result> {
  return takeTurn(() => runInAgentWorld(options, body));
}

/** CLI runs of one file at once (each CLI takes most of a core while it starts). */
const AGENT_WORLDS_AT_ONCE = 2;
let worldsRunning = 0;
const worldsWaiting: Array<() => void> = [];

/** Runs `task` once fewer than `AGENT_WORLDS_AT_ONCE` others run, in the order asked. */
async function takeTurn<Result>(task: () => Promise<Result>): Promise<Result> {
  if (worldsRunning < AGENT_WORLDS_AT_ONCE) worldsRunning += 1;
  else await new Promise<void>(resolve => worldsWaiting.push(resolve));
  try {
    return await task();
  } finally {
    const next = worldsWaiting.shift();
    if (next) next();
    else worldsRunning -= 1;
  }
}

async function runInAgentWorld<Server extends { close(graceMs?: number): Promise<void> }, Result>(
  options: { prefix: string; startServer: () => Promise<Server>; files?: Record<string, string> },
  body: (world: AgentWorld<Server>) => Promise<Result>,
): Promise<Result> {
  const [server, trap] = await Promise.all([options.startServer(), startEgressTrap()]);
  const sandbox = createAgentSandbox(options.prefix);
  try {
    for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(sandbox.cwd, name), text);
    const result = await body({ server, trap, sandbox });
    expect(trap.attempts).toEqual([]);
    return result;
  } finally {
    await trap.close();
    await server.close(1_000);
    sandbox.remove();
  }
}

/** The environment every CLI run starts from: nothing of the developer's own, all traffic beyond loopback trapped. */
export function isolatedEnvironment(sandbox: AgentSandbox, trap: EgressTrap): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: sandbox.home,
    // A temp folder beside (not above) the config folder: Codex refuses to link its sandbox helper
    // (codex-linux-sandbox) into a CODEX_HOME under the temp folder, and its shell tool then fails.
    TMPDIR: sandbox.tmp,
    XDG_CONFIG_HOME: join(sandbox.home, '.config'),
    XDG_CACHE_HOME: join(sandbox.home, '.cache'),
    XDG_DATA_HOME: join(sandbox.home, '.local', 'share'),
    HTTP_PROXY: trap.url,
    HTTPS_PROXY: trap.url,
    http_proxy: trap.url,
    https_proxy: trap.url,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    TERM: 'dumb',
    NO_COLOR: '1',
  };
}

/** What one CLI run printed, with its stdout's JSON lines parsed. */
export type CliRun = { code: number | null; stdout: string; stderr: string; events: Array<Record<string, unknown>> };

/** Runs a CLI to its end (killed after `timeoutMs`), stdin closed. */
export function runCli(command: string, args: readonly string[], options: { cwd: string; env: Record<string, string>; timeoutMs: number }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', chunk => (stdout += chunk));
    child.stderr.on('data', chunk => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', error => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', code => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, events: parseJsonLines(stdout) });
    });
  });
}

function parseJsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter(line => line.trim().startsWith('{'))
    .map(line => JSON.parse(line) as Record<string, unknown>);
}

/**
 * One request the gateway's HTTP server received: method, path, headers, when it arrived (ms since
 * the log started) and the status it was answered with (once answered).
 */
export type GatewayRequest = { method: string; url: string; at: number; headers: IncomingMessage['headers']; status?: number };

/** Logs every request the gateway's server receives, as it arrives (upgrade probes included). */
export function logGatewayRequests(server: Server): { requests: GatewayRequest[]; stop(): void } {
  const requests: GatewayRequest[] = [];
  const started = performance.now();
  const listener = (request: IncomingMessage, response: ServerResponse) => {
    const entry: GatewayRequest = { method: request.method ?? '', url: request.url ?? '', at: performance.now() - started, headers: { ...request.headers } };
    requests.push(entry);
    response.once('finish', () => (entry.status = response.statusCode));
  };
  server.prependListener('request', listener);
  return { requests, stop: () => server.off('request', listener) };
}

/** One request a recording proxy passed on, with its raw body, and the answer's status and text. */
export type RecordedExchange = {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  status?: number;
  answer: string;
};

/** A recording pass-through proxy: `exchanges` in arrival order; `retarget` points it elsewhere. */
export type RecordingProxy = { url: string; exchanges: RecordedExchange[]; retarget(target: string): void; close(): Promise<void> };

/**
 * A pass-through HTTP proxy on 127.0.0.1 in front of `target` that keeps each request (headers and
 * raw body) and the answer it got. Put in front of the gateway it shows what a CLI sent; put between
 * the gateway and the simulator (its upstreams' base URL) it shows what reached the model, since the
 * simulator's own log keeps no bodies. The target can be set once known (`retarget`).
 */
export async function startRecordingProxy(target = ''): Promise<RecordingProxy> {
  const exchanges: RecordedExchange[] = [];
  let current = target;
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const exchange: RecordedExchange = { method: request.method ?? '', url: request.url ?? '', headers: { ...request.headers }, body: Buffer.concat(chunks), answer: '' };
    exchanges.push(exchange);
    const upstream = httpRequest(`${current}${request.url}`, { method: request.method, headers: { ...request.headers, host: new URL(current).host } }, answer => {
      exchange.status = answer.statusCode;
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      const parts: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => {
        parts.push(chunk);
        response.write(chunk);
      });
      answer.on('end', () => {
        exchange.answer = Buffer.concat(parts).toString('utf8');
        response.end();
      });
    });
    upstream.on('error', () => response.destroy());
    upstream.end(exchange.body);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    retarget: next => (current = next),
    close: () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
