import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { findFreePort, startRestartableServer, waitUntil } from './throwaway-process';

/** A throwaway PostgreSQL server on 127.0.0.1: its own data folder, stopped by PID and deleted by `stop`; `pause` and `resume` restart it on the same port with its data. */
export type TestPostgres = {
  /** `postgres://signalbox@127.0.0.1:PORT/postgres` (trust authentication, loopback only). */
  url: string;
  port: number;
  /** Stops the server (fast shutdown, sessions cut) and keeps its data folder. */
  pause(): Promise<void>;
  /** Starts it again on the same port, on the same data; resolves once it accepts connections. */
  resume(): Promise<void>;
  /** Stops it and deletes its folder. */
  stop(): Promise<void>;
};

/**
 * Where Debian's PostgreSQL programs are (`/usr/lib/postgresql/<version>/bin`, the newest), or
 * `SIGNALBOX_POSTGRES_BIN`. ./scripts/test.sh installs the `postgresql` package when it is missing.
 */
export function postgresBinDirectory(): string {
  if (process.env.SIGNALBOX_POSTGRES_BIN) return process.env.SIGNALBOX_POSTGRES_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter(name => existsSync(join(root, name, 'bin', 'initdb'))) : [];
  const newest = versions.sort((left, right) => Number(right) - Number(left))[0];
  if (newest === undefined) throw new Error('PostgreSQL is not installed: run ./scripts/test.sh, which installs Debian’s postgresql package.');
  return join(root, newest, 'bin');
}

/**
 * PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user that Debian's
 * package creates (the process itself, so its PID is the server's), in a folder that user owns.
 */
function serverUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout);
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Starts a fresh PostgreSQL cluster (initdb, then the server) on a free port of 127.0.0.1, made for
 * tests: no fsync, trust authentication for the `signalbox` superuser, Unix socket in its own
 * folder, on `port` if given. Resolves once it accepts connections. `pause` and `resume` serve the
 * tests of a database that goes away while the gateway runs and comes back.
 */
export async function startPostgres(options: { port?: number } = {}): Promise<TestPostgres> {
  const bin = postgresBinDirectory();
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-postgres-'));
  const user = serverUser();
  if (user) chownSync(folder, user.uid, user.gid);
  const data = join(folder, 'data');
  const initArgs = ['-D', data, '-U', 'signalbox', '--auth=trust', '--no-sync', '-E', 'UTF8', '--no-instructions'];
  // Not spawnSync: the run's shared server is started by jest's own process while it hands out test files.
  try {
    await promisify(execFile)(join(bin, 'initdb'), initArgs, { encoding: 'utf8', timeout: 30_000, ...user });
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    const { stderr, stdout, message } = error as { stderr?: string; stdout?: string; message: string };
    throw new Error(`initdb failed: ${stderr || stdout || message}`, { cause: error });
  }
  const port = options.port ?? (await findFreePort());
  const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${folder}`, 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=200'];
  const args = ['-D', data, '-p', String(port), ...settings.flatMap(setting => ['-c', setting])];
  const server = await startRestartableServer({
    name: `PostgreSQL on port ${port}`,
    folder,
    start: () => spawn(join(bin, 'postgres'), args, { stdio: ['ignore', 'ignore', 'pipe'], ...user }),
    ready: () => spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']).status === 0,
    // PostgreSQL's fast shutdown: ends sessions, no checkpoint wait.
    stopSignal: 'SIGINT',
  });
  return { url: `postgres://signalbox@127.0.0.1:${port}/postgres`, port, ...server };
}

/**
 * Set by the integration tests' global setup (test/helpers/shared-services-global-setup.ts): the URL
 * of the run's shared server (its maintenance database), and the file that says why it could not
 * start, should it fail. The server may still be starting when a test file first reads them.
 */
export const SHARED_POSTGRES_URL_VARIABLE = 'SIGNALBOX_TEST_POSTGRES_URL';
export const SHARED_POSTGRES_FAILURE_VARIABLE = 'SIGNALBOX_TEST_POSTGRES_FAILURE';

/** One test file's own database. */
export type TestDatabase = {
  /** `postgres://signalbox@127.0.0.1:PORT/NAME` */
  url: string;
  port: number;
  /** Drops the database, sessions and all (or stops the file's own server). */
  stop(): Promise<void>;
};

/**
 * A new empty database for one test file: on the run's shared server when the global setup started
 * one (`CREATE DATABASE` takes milliseconds, a cluster of its own seconds), else on a server of the
 * file's own. A file that stops and restarts its database server uses `startPostgres` instead.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const shared = await sharedPostgresURL();
  if (shared === undefined) {
    const server = await startPostgres();
    return { url: server.url, port: server.port, stop: server.stop };
  }
  const name = `file_${randomBytes(8).toString('hex')}`;
  await runOnDatabase(shared, `CREATE DATABASE ${name}`);
  return {
    url: shared.replace(/\/postgres$/, `/${name}`),
    port: Number(new URL(shared).port),
    stop: () => runOnDatabase(shared, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** The shared server's URL once it accepts connections, or undefined when the run has none. */
export async function sharedPostgresURL(): Promise<string | undefined> {
  const url = process.env[SHARED_POSTGRES_URL_VARIABLE];
  if (!url) return undefined;
  const failure = process.env[SHARED_POSTGRES_FAILURE_VARIABLE] ?? '';
  const failed = () => failure !== '' && existsSync(failure);
  const accepts = () => runOnDatabase(url, 'SELECT 1').then(() => true, () => false);
  await waitUntil(accepts, { what: () => `the shared PostgreSQL server: ${failed() ? readFileSync(failure, 'utf8') : 'still starting'}`, exited: failed, timeoutMs: 60_000 });
  return url;
}

/** One statement on its own connection (`CREATE DATABASE` cannot run in a pool's transaction). */
async function runOnDatabase(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(statement);
  } finally {
    await client.end().catch(() => undefined);
  }
}
