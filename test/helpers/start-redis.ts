import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort, startRestartableServer } from './throwaway-process';

/** A throwaway Redis server on 127.0.0.1, stopped by PID and its folder deleted by `stop`; `pause` and `resume` restart it on the same port (its data is not kept). */
export type TestRedis = {
  /** `redis://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** Stops the server; its data is not kept. */
  pause(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers PING. */
  resume(): Promise<void>;
  /** Stops it and deletes its folder. */
  stop(): Promise<void>;
};

/** Debian's `redis-server` (./scripts/test.sh installs it when missing), or `SIGNALBOX_REDIS_SERVER`. */
const REDIS_SERVER = process.env.SIGNALBOX_REDIS_SERVER ?? '/usr/bin/redis-server';

/** True when a Redis server on `port` answers `PING` with `+PONG`. */
function answersPing(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const socket = connect(port, '127.0.0.1');
    let reply = '';
    const finish = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('error', () => finish(false));
    socket.on('data', chunk => {
      reply += chunk;
      if (reply.includes('\r\n')) finish(reply.startsWith('+PONG'));
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}

/**
 * Starts a Redis server on a free port of 127.0.0.1 that keeps nothing on disk (no RDB snapshots,
 * no append-only file), in a folder of its own. Resolves once it answers PING. `pause` and `resume`
 * serve the tests of a limits store that goes away while the gateway runs and comes back.
 */
export async function startRedis(): Promise<TestRedis> {
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-redis-'));
  const port = await findFreePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder, '--protected-mode', 'yes'];
  const server = await startRestartableServer({
    name: `Redis on port ${port}`,
    folder,
    start: () => spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] }),
    ready: () => answersPing(port),
    stopSignal: 'SIGTERM',
  });
  return { url: `redis://127.0.0.1:${port}`, port, ...server };
}
