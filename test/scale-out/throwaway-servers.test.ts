import { connect } from 'node:net';
import Redis from 'ioredis';
import { Client } from 'pg';
import { startPostgres, type TestPostgres } from '../helpers/start-postgres';
import { startRedis, type TestRedis } from '../helpers/start-redis';

/**
 * The real servers the scale-out tests run against: Debian's PostgreSQL and Redis, started fresh on
 * free ports of 127.0.0.1 and stopped by PID. Proves the harness, through the same clients the
 * stores use (`pg`, `ioredis`).
 */
describe('throwaway PostgreSQL and Redis servers', () => {
  let postgres: TestPostgres;
  let redis: TestRedis;
  beforeAll(async () => {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  });
  afterAll(async () => {
    await Promise.all([postgres?.stop(), redis?.stop()]);
  });

  it('PostgreSQL accepts the pg client on 127.0.0.1 and runs a transaction', async () => {
    expect(postgres.url).toBe(`postgres://signalbox@127.0.0.1:${postgres.port}/postgres`);
    const client = new Client({ connectionString: postgres.url });
    await client.connect();
    try {
      await client.query('BEGIN');
      await client.query('CREATE TABLE balances (id TEXT PRIMARY KEY, micros BIGINT NOT NULL)');
      await client.query("INSERT INTO balances VALUES ('acct_1', 1500000)");
      await client.query('COMMIT');
      const { rows } = await client.query<{ micros: string; version: string }>('SELECT micros, version() FROM balances');
      expect(rows).toEqual([{ micros: '1500000', version: expect.stringMatching(/^PostgreSQL \d+/) }]);
    } finally {
      await client.end();
    }
  });

  it('Redis accepts ioredis on 127.0.0.1 and runs a Lua script atomically', async () => {
    const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0 });
    await client.connect();
    try {
      const script = "local n = redis.call('INCRBY', KEYS[1], ARGV[1]); redis.call('PEXPIRE', KEYS[1], 60000); return n";
      expect(await client.eval(script, 1, 'window:key_1', 3)).toBe(3);
      expect(await client.eval(script, 1, 'window:key_1', 4)).toBe(7);
      expect(await client.pttl('window:key_1')).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  });

  it('stops each server by its PID: the ports refuse connections afterwards', async () => {
    const [spare, spareRedis] = await Promise.all([startPostgres(), startRedis()]);
    await Promise.all([spare.stop(), spareRedis.stop()]);
    expect(await Promise.all([connectionError(spare.port), connectionError(spareRedis.port)])).toEqual(['ECONNREFUSED', 'ECONNREFUSED']);
  });
});

/** The error code a TCP connection to `port` of 127.0.0.1 fails with, or `connected`. */
function connectionError(port: number): Promise<string> {
  return new Promise(resolve => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve('connected')));
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}
