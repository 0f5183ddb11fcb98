import pg from 'pg';
import { startPostgres, type TestPostgres } from '../helpers/start-postgres';

/** One throwaway PostgreSQL server per test file, and a fresh database on it per store. */
export type PostgresTestDatabases = {
  /** A new empty database's connection string: stores on different databases never see each other's rows. */
  createDatabase(): Promise<string>;
};

/**
 * Starts the server in `beforeAll` and stops it (by PID) in `afterAll`. Each `createDatabase` runs
 * `CREATE DATABASE` on the server's maintenance database, so tests stay apart without a server each.
 */
export function usePostgresTestDatabases(): PostgresTestDatabases {
  let server: TestPostgres | undefined;
  let admin: pg.Pool | undefined;
  let count = 0;
  beforeAll(async () => {
    server = await startPostgres();
    admin = ignoreTeardownErrors(new pg.Pool({ connectionString: server.url, max: 2 }));
  }, 60_000);
  afterAll(async () => {
    await admin?.end();
    await server?.stop();
  }, 30_000);
  return {
    async createDatabase() {
      const name = `store_${process.pid}_${++count}`;
      await admin!.query(`CREATE DATABASE ${name}`);
      return server!.url.replace(/\/postgres$/, `/${name}`);
    },
  };
}

/**
 * `pool.end()` resolves before its connections have finished closing, so the server stopping right
 * after can still reach one as "terminating connection": an error the pool re-emits, which would
 * end the test run without a listener. It only ever happens while tearing down.
 */
export function ignoreTeardownErrors(pool: pg.Pool): pg.Pool {
  pool.on('error', () => undefined);
  return pool;
}
