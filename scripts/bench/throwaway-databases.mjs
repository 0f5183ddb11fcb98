// Throwaway PostgreSQL (Debian's, as the tests use) and Redis servers on free loopback ports, for
// the benchmarks of the shared-storage mode. Each start pushes its own cleanup (stop the server,
// delete its folder) onto the `cleanups` list the caller runs at the end.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';

/** A port free on 127.0.0.1 right now. */
export async function freePort() {
  const server = createServer();
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise(resolve => server.close(resolve));
  return port;
}

async function until(ready, what) {
  const deadline = Date.now() + 30_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`not ready: ${what}`);
    await wait(100);
  }
}

/**
 * A throwaway PostgreSQL cluster; resolves with its URL. As root it runs as Debian's postgres user,
 * which PostgreSQL requires. Durable by default (every commit waits for its WAL flush), as a
 * deployment runs; `synchronousCommit: 'off'` shows what that flush costs on this disk.
 */
export async function startPostgres(cleanups, { synchronousCommit = 'on' } = {}) {
  const base = '/usr/lib/postgresql';
  const version = readdirSync(base).filter(name => existsSync(join(base, name, 'bin', 'initdb'))).sort((a, b) => b - a)[0];
  const bin = join(base, version, 'bin');
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-bench-pg-'));
  const asRoot = userInfo().uid === 0;
  const user = asRoot ? { uid: Number(spawnSync('id', ['-u', 'postgres']).stdout), gid: Number(spawnSync('id', ['-g', 'postgres']).stdout) } : {};
  if (asRoot) chownSync(folder, user.uid, user.gid);
  const data = join(folder, 'data');
  const init = spawnSync(join(bin, 'initdb'), ['-D', data, '-U', 'signalbox', '--auth=trust', '-E', 'UTF8', '--no-instructions'], { ...user });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort();
  const settings = ['listen_addresses=127.0.0.1', `unix_socket_directories=${folder}`, 'max_connections=200', `synchronous_commit=${synchronousCommit}`];
  const server = spawn(join(bin, 'postgres'), ['-D', data, '-p', String(port), ...settings.flatMap(setting => ['-c', setting])], { stdio: 'ignore', ...user });
  cleanups.push(() => (server.kill('SIGINT'), new Promise(resolve => server.once('exit', resolve))).then(() => rmSync(folder, { recursive: true, force: true })));
  await until(() => spawnSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-q']).status === 0, 'PostgreSQL');
  return `postgres://signalbox@127.0.0.1:${port}/postgres`;
}

/** A throwaway Redis without persistence; resolves with its URL. */
export async function startRedis(cleanups) {
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-bench-redis-'));
  const port = await freePort();
  const server = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder], { stdio: 'ignore' });
  cleanups.push(() => (server.kill('SIGTERM'), new Promise(resolve => server.once('exit', resolve))).then(() => rmSync(folder, { recursive: true, force: true })));
  await until(() => spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG', 'Redis');
  return `redis://127.0.0.1:${port}`;
}
