import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { findFreePort, stopProcess, waitUntil } from '../helpers/throwaway-process';

/** A throwaway Redis server that can be stopped and started again on the same port (its data is not kept). */
export type RestartableRedis = {
  url: string;
  port: number;
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
};

const REDIS_SERVER = process.env.SWITCHYARD_REDIS_SERVER ?? '/usr/bin/redis-server';

async function answersPing(port: number): Promise<boolean> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * Like `startRedis` (nothing kept on disk, loopback only), with `pause` and `resume` on the same
 * port, for the tests of a limits store that goes away while the gateway runs and comes back.
 */
export async function startRestartableRedis(): Promise<RestartableRedis> {
  const folder = mkdtempSync(join(tmpdir(), 'switchyard-redis-'));
  const port = await findFreePort();
  let server: ChildProcess | undefined;
  const pause = async () => {
    if (server) await stopProcess(server, 'SIGTERM');
    server = undefined;
  };
  const resume = async () => {
    const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder], { stdio: 'ignore' });
    server = child;
    await waitUntil(() => answersPing(port), { what: () => `Redis on port ${port}`, exited: () => child.exitCode !== null || child.signalCode !== null });
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
  return { url: `redis://127.0.0.1:${port}`, port, pause, resume, stop };
}
