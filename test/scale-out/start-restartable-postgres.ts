import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { postgresBinDirectory } from '../helpers/start-postgres';
import { findFreePort, stopProcess, waitUntil } from '../helpers/throwaway-process';

/** A throwaway PostgreSQL server that can be stopped and started again on the same port with its data. */
export type RestartablePostgres = {
  url: string;
  port: number;
  /** Stops the server (fast shutdown, sessions cut) and keeps its data folder. */
  pause(): Promise<void>;
  /** Starts it again on the same port, on the same data; resolves once it accepts connections. */
  resume(): Promise<void>;
  /** Stops it and deletes its folder. */
  stop(): Promise<void>;
};

/** As root, PostgreSQL runs as Debian's `postgres` user (it refuses root), in a folder that user owns. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout);
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Like `startPostgres` (fresh cluster on a free loopback port, trust authentication for
 * `switchyard`), with `pause` and `resume`, for the tests of a database that goes away while the
 * gateway runs and comes back.
 */
export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const bin = postgresBinDirectory();
  const folder = mkdtempSync(join(tmpdir(), 'switchyard-postgres-'));
  const user = serverUser();
  if (user) chownSync(folder, user.uid, user.gid);
  const data = join(folder, 'data');
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'switchyard', '--auth=trust', '--no-sync', '-E', 'UTF8', '--no-instructions'], {
    encoding: 'utf8',
    timeout: 30_000,
    ...user,
  });
  if (init.status !== 0) {
    rmSync(folder, { recursive: true, force: true });
    throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const port = await findFreePort();
  const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${folder}`, 'fsync=off', 'synchronous_commit=off', 'full_page_writes=off', 'max_connections=200'];
  let server: ChildProcess | undefined;
  const pause = async () => {
    if (server) await stopProcess(server, 'SIGINT');
    server = undefined;
  };
  const resume = async () => {
    const child = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), ...settings.flatMap(setting => ['-c', setting])], {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...user,
    });
    server = child;
    let output = '';
    child.stderr?.on('data', chunk => (output += chunk));
    await waitUntil(() => spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']).status === 0, {
      what: () => `PostgreSQL on port ${port}:\n${output}`,
      exited: () => child.exitCode !== null || child.signalCode !== null,
    });
  };
  const stop = async () => {
    await pause();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await resume();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://switchyard@127.0.0.1:${port}/postgres`, port, pause, resume, stop };
}
