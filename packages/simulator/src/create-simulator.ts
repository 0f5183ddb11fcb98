/* eslint-disable @typescript-eslint/no-require-imports -- the answering modules are a lazy `require`, loaded at the first request */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCredentialRegistry, type CredentialStats } from './credential-registry';
import { readCredentialSettings, type CredentialSettings } from './credential-settings';
import type * as HandleRequestModule from './handle-request';
import type { BodyObserver, SimulatorHandler, SimulatorState } from './handle-request';
import type * as PromptCacheModule from './prompt-cache';
import { resolveSimulatorOptions, type SimulatorOptions } from './simulator-options';
import { createConcurrencyPeak } from './create-concurrency-peak';
import { createStatsCounter, type SimulatorStats } from './simulator-stats';

/** Where a listening simulator can be reached. OpenAI clients use `${url}/v1`, Anthropic and Gemini clients `url`. */
export type SimulatorAddress = { url: string; port: number };

/**
 * One request the simulator received: its method, target (path and query) and headers as sent, and,
 * once its body is read as a JSON object, that body's top-level field names in order (at most
 * `MAX_LOGGED_FIELDS`; never the values, which hold prompts).
 */
export type SimulatorRequestLogEntry = { method: string; url: string; headers: IncomingHttpHeaders; fields?: readonly string[] };

/** How many top-level field names a log entry keeps. */
const MAX_LOGGED_FIELDS = 100;

/** How many requests `requests()` remembers: the latest ones, so a long-running simulator stays small. */
const REQUEST_LOG_SIZE = 100;

/** A simulated model behind a real `node:http` server. */
export type Simulator = {
  server: Server;
  /** Starts listening (port 0 = any free port; host defaults to 127.0.0.1). */
  listen(port?: number, host?: string): Promise<SimulatorAddress>;
  /** Stops listening and ends every open connection, keep-alive and hanging ones included. */
  close(): Promise<void>;
  /** The plain request listener, for hosts that mount the simulator on their own server. */
  handler: SimulatorHandler;
  /** Counters of requests seen, aborted and in flight (a copy). */
  stats(): SimulatorStats;
  /** Zeroes the request and abort counters and every key's stats. */
  resetStats(): void;
  /**
   * Replaces the settings of requests carrying `key` (rate limit, revocation) while running;
   * `undefined` removes them. A new limit starts with a full allowance. Throws RangeError on bad settings.
   */
  configureCredential(key: string, settings: CredentialSettings | undefined): void;
  /** What the simulator saw from `key` ('' for requests without one): requests, refusals, input and cache tokens. */
  credentialStats(key: string): CredentialStats;
  /** Forgets every cached prompt prefix of every key. */
  clearPromptCache(): void;
  /**
   * The most requests in flight at once since the simulator was created or `resetPeakActive` was
   * called: across every gateway instance that sends to it, what their concurrency limits let through.
   */
  peakActive(): number;
  /** Starts a new peak measurement from the number of requests in flight now. */
  resetPeakActive(): void;
  /** The latest requests received (at most 100), oldest first: what a gateway really sent upstream. */
  requests(): readonly SimulatorRequestLogEntry[];
};

/**
 * Creates a deterministic simulated model answering `POST /v1/responses`, `/v1/messages`,
 * `/v1/chat/completions` and Gemini's `/v1beta/models/…` in each protocol's exact wire shape, JSON
 * and streamed. Throws RangeError on bad options.
 */
export function createSimulator(options?: SimulatorOptions): Simulator {
  const resolved = resolveSimulatorOptions(options);
  const stats = createStatsCounter();
  const credentials = createCredentialRegistry(resolved.credentials, resolved.now);
  const entries = new WeakMap<IncomingMessage, SimulatorRequestLogEntry>();
  const observeBody: BodyObserver = (request, body) => {
    const entry = entries.get(request);
    if (entry !== undefined) entry.fields = Object.keys(body).slice(0, MAX_LOGGED_FIELDS);
  };
  let answering: Answering | undefined;
  const log: SimulatorRequestLogEntry[] = [];
  const concurrency = createConcurrencyPeak();
  const handler: SimulatorHandler = (request, response) => {
    concurrency.enter(response);
    const entry: SimulatorRequestLogEntry = { method: request.method ?? '', url: request.url ?? '', headers: { ...request.headers } };
    entries.set(request, entry);
    log.push(entry);
    if (log.length > REQUEST_LOG_SIZE) log.shift();
    (answering ??= startAnswering({ options: resolved, stats, credentials, observeBody })).answer(request, response);
  };
  const server = createServer(handler);
  return {
    server,
    handler,
    listen: (port = 0, host = '127.0.0.1') => listen(server, port, host),
    close: () => close(server),
    stats: stats.snapshot,
    resetStats: () => {
      stats.reset();
      credentials.resetStats();
    },
    configureCredential: (key, settings) => {
      const checked = settings === undefined ? undefined : readCredentialSettings(settings);
      if (typeof checked === 'string') throw new RangeError(`Simulator credential settings: ${checked}`);
      if (!credentials.configure(key, checked)) throw new RangeError('Simulator credential settings: too many configured keys');
    },
    credentialStats: credentials.statsOf,
    clearPromptCache: () => answering?.clearPromptCache(),
    peakActive: concurrency.peak,
    resetPeakActive: concurrency.reset,
    requests: () => log.map(entry => ({ ...entry })),
  };
}

/** A simulator's request listener and its prompt cache. */
type Answering = { answer: SimulatorHandler; clearPromptCache(): void };

/**
 * Loads the protocols, the answer generator and the prompt cache (most of the package) at a
 * simulator's first request: a gateway embedding a simulator that no route uses never holds them.
 */
function startAnswering(state: Omit<SimulatorState, 'promptCache'>): Answering {
  const promptCache = (require('./prompt-cache') as typeof PromptCacheModule).createPromptCache(state.options.promptCache, state.options.now);
  const { createRequestHandler } = require('./handle-request') as typeof HandleRequestModule;
  return { answer: createRequestHandler({ ...state, promptCache }), clearPromptCache: promptCache.clear };
}

function listen(server: Server, port: number, host: string): Promise<SimulatorAddress> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({ url: `http://${urlHost}:${address.port}`, port: address.port });
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) {
      server.closeAllConnections();
      resolve();
      return;
    }
    server.close(error => (error === undefined ? resolve() : reject(error)));
    server.closeAllConnections();
  });
}
