import { isIP } from 'node:net';
import { looksLikeApiKey } from '@signalbox/accounts';
import type { TrustProxy } from './create-app';
import { readMetricsEnvironment, type MetricsSettings } from './read-metrics-settings';
import { readSharedStorageEnvironment, type SharedStorageEnvironment } from './read-shared-storage-environment';
import { StartUpError } from './start-up-error';

/** The levels pino writes at, lowest first, and `silent` for none. */
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What the example server takes from its environment, checked before anything starts. */
export type ServerEnvironment = {
  port: number;
  host: string;
  configPath: string | undefined;
  demoKey: string | undefined;
  dataDirectory: string;
  /** How long open requests may run on after SIGTERM/SIGINT before they are ended. */
  shutdownGraceMs: number;
  /** `SIGNALBOX_TRUST_PROXY`: Express's `trust proxy` behind a load balancer; absent when unset. */
  trustProxy?: TrustProxy;
  /** `LOG_LEVEL`: the lowest level written (`debug` adds a line per refusal); default `info`. */
  logLevel: LogLevel;
  /** PostgreSQL and Redis for several instances (`SIGNALBOX_DATABASE_URL`, `SIGNALBOX_REDIS_URL`); empty for one. */
  sharedStorage: SharedStorageEnvironment;
  /** `SIGNALBOX_METRICS`, `SIGNALBOX_METRICS_PORT`, `SIGNALBOX_METRICS_HOST`: only those set. */
  metrics: Partial<MetricsSettings>;
};

/**
 * Reads `PORT`, `HOST`, `SIGNALBOX_CONFIG`, `SIGNALBOX_DEMO_KEY`, `SIGNALBOX_DATA_DIR` and
 * `SIGNALBOX_SHUTDOWN_GRACE_MS`, `SIGNALBOX_TRUST_PROXY`, `LOG_LEVEL`, the metrics switches (`readMetricsEnvironment`), and the shared storage of several instances
 * (`readSharedStorageEnvironment`).
 * A bad value is a `StartUpError` naming the variable and the shape it needs; a given key's value
 * is never echoed.
 */
export function readServerEnvironment(environment: NodeJS.ProcessEnv): ServerEnvironment {
  return {
    port: readPort(environment.PORT),
    host: readHost(environment.HOST),
    configPath: environment.SIGNALBOX_CONFIG || undefined,
    demoKey: readDemoKey(environment.SIGNALBOX_DEMO_KEY),
    dataDirectory: environment.SIGNALBOX_DATA_DIR || 'data',
    shutdownGraceMs: readShutdownGrace(environment.SIGNALBOX_SHUTDOWN_GRACE_MS),
    logLevel: readLogLevel(environment.LOG_LEVEL),
    sharedStorage: readSharedStorageEnvironment(environment),
    metrics: readMetricsEnvironment(environment),
    ...readTrustProxy(environment.SIGNALBOX_TRUST_PROXY),
  };
}

/** A hop count (`1`), `true`, or a comma-separated list of addresses, subnets and names (`loopback, 10.0.0.0/8`). */
function readTrustProxy(value: string | undefined): { trustProxy?: TrustProxy } {
  const text = value?.trim();
  if (!text || text === 'false') return {};
  if (text === 'true') return { trustProxy: true };
  if (/^\d{1,2}$/.test(text)) return { trustProxy: Number(text) };
  if (/^[A-Za-z0-9.:/, ]+$/.test(text)) return { trustProxy: text };
  throw new StartUpError(`SIGNALBOX_TRUST_PROXY=${value}: must be a hop count (1), true, or addresses, subnets and names separated by commas (loopback, 10.0.0.0/8)`);
}

function readLogLevel(value: string | undefined): LogLevel {
  const level = value?.trim().toLowerCase();
  if (!level) return 'info';
  const known = LOG_LEVELS.find(name => name === level);
  if (known) return known;
  throw new StartUpError(`LOG_LEVEL=${value}: must be one of ${LOG_LEVELS.join(', ')} (debug adds a line per refused request); default info`);
}

function readShutdownGrace(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 10_000;
  if (/^\d{1,9}$/.test(value.trim())) return Number(value);
  throw new StartUpError(`SIGNALBOX_SHUTDOWN_GRACE_MS=${value}: must be a whole number of milliseconds (0 ends open requests at once); default 10000`);
}

function readPort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 8080;
  const port = Number(value);
  if (/^\d+$/.test(value.trim()) && port <= 65_535) return port;
  throw new StartUpError(`PORT=${value}: must be a port number from 1 to 65535 (0 picks a free one); default 8080`);
}

function readHost(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return '127.0.0.1';
  const host = value.trim();
  if (isIP(host) !== 0 || /^[A-Za-z0-9.-]+$/.test(host)) return host;
  throw new StartUpError(`HOST=${value}: must be an IP address or host name to listen on, such as 127.0.0.1 or 0.0.0.0; default 127.0.0.1`);
}

function readDemoKey(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (looksLikeApiKey(value) && /^sbx-[A-Za-z0-9]+$/.test(value)) return value;
  throw new StartUpError(
    `SIGNALBOX_DEMO_KEY: must be 'sbx-' followed by 40 letters and digits (44 characters; the value given has ${value.length}); unset it to have a key generated`,
  );
}
