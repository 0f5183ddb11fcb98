import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { createTestDatabase, type TestDatabase } from '../helpers/start-postgres';

/** A database of the test file's own (on the run's shared server, or its own), and a fresh database in it per store. */
export type PostgresTestDatabases = {
  /** A new empty database's connection string: stores on different databases never see each other's rows. */
  createDatabase(): Promise<string>;
  /**
   * A database with the schema migrated and no rows, none of whose stores the test has opened
   * before: made once and emptied after each test that used it (emptying a few tables takes
   * milliseconds; a new database, half a second, and migrating it as much again).
   */
  createMigratedDatabase(): Promise<string>;
};

/** A migrated database the file keeps, with the connection that empties it. */
type MigratedDatabase = { url: string; empty(): Promise<void>; end(): Promise<void> };

/**
 * Takes the file's database in `beforeAll` and drops it (or stops its server) in `afterAll`. Each
 * `createDatabase` runs `CREATE DATABASE` on the server's maintenance database, so tests stay apart
 * without a server each; every name carries random digits, since other files may share the server.
 * The migrated databases a test took are emptied after it, and handed out again.
 */
export function usePostgresTestDatabases(): PostgresTestDatabases {
  let home: TestDatabase | undefined;
  let admin: pg.Pool | undefined;
  const created: string[] = [];
  const migrated: MigratedDatabase[] = [];
  const free: MigratedDatabase[] = [];
  const taken: MigratedDatabase[] = [];
  const prefix = `store_${randomBytes(4).toString('hex')}`;
  const createDatabase = async () => {
    const name = `${prefix}_${created.length + 1}`;
    created.push(name);
    await admin!.query(`CREATE DATABASE ${name}`);
    return home!.url.replace(/\/[^/]+$/, `/${name}`);
  };
  const migrate = async (): Promise<MigratedDatabase> => {
    const url = await createDatabase();
    await (await createPostgresAccountStore({ connectionString: url, serverSecret: 'migrated', holdSweepIntervalMs: 0 })).close();
    const database = { url, ...(await emptier(url)) };
    migrated.push(database);
    return database;
  };
  beforeAll(async () => {
    home = await createTestDatabase();
    admin = ignoreTeardownErrors(new pg.Pool({ connectionString: home.url, max: 2 }));
  }, 60_000);
  afterEach(async () => {
    const used = taken.splice(0);
    await Promise.all(used.map(database => database.empty()));
    free.push(...used);
  });
  afterAll(async () => {
    await Promise.all(migrated.map(database => database.end()));
    // The databases made here are left for the server's own end (a shared one's is the run's):
    // dropping each costs a checkpoint.
    await admin?.end();
    await home?.stop();
  }, 60_000);
  return {
    createDatabase,
    async createMigratedDatabase() {
      const database = free.pop() ?? (await migrate());
      taken.push(database);
      return database.url;
    },
  };
}

/**
 * Empties a migrated database as it was after its first migration: every table but
 * `schema_migrations` without rows, every identity starting again at 1. Triggers, foreign keys
 * included, are off for that one session (the audit log refuses deletes on purpose).
 */
async function emptier(url: string): Promise<Pick<MigratedDatabase, 'empty' | 'end'>> {
  const pool = ignoreTeardownErrors(new pg.Pool({ connectionString: url, max: 1 }));
  const tables = await pool.query<{ name: string }>("SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'");
  const sequences = await pool.query<{ name: string }>("SELECT quote_ident(sequencename) AS name FROM pg_sequences WHERE schemaname = 'public'");
  const statement = [
    'SET session_replication_role = replica',
    ...tables.rows.map(table => `DELETE FROM ${table.name}`),
    ...sequences.rows.map(sequence => `ALTER SEQUENCE ${sequence.name} RESTART`),
    'SET session_replication_role = origin',
  ].join(';\n');
  return { empty: async () => void (await pool.query(statement)), end: () => pool.end() };
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
