import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresBinDirectory, SHARED_POSTGRES_FAILURE_VARIABLE, SHARED_POSTGRES_URL_VARIABLE, startPostgres, type TestPostgres } from './start-postgres';
import { findFreePort } from './throwaway-process';

/** What the teardown stops: the server being started, in jest's own process. */
export type SharedServices = { postgres: Promise<TestPostgres | undefined> };

declare global {
  var signalboxSharedServices: SharedServices | undefined;
}

/**
 * Jest's global setup for the integration tests: one PostgreSQL server for the whole run, in which
 * each test file makes databases of its own (`createTestDatabase`), instead of a cluster per file.
 * Its URL is in the environment before the workers start, and the server starts in the background
 * meanwhile, so a run with no database test waits for nothing. Without PostgreSQL installed, or with
 * a URL given already, it does nothing: files then start their own server and say what is missing.
 */
export default async function startSharedServices(): Promise<void> {
  if (process.env[SHARED_POSTGRES_URL_VARIABLE]) return;
  try {
    postgresBinDirectory();
  } catch {
    return;
  }
  const port = await findFreePort();
  const failure = join(mkdtempSync(join(tmpdir(), 'signalbox-shared-postgres-')), 'failure.txt');
  process.env[SHARED_POSTGRES_URL_VARIABLE] = `postgres://signalbox@127.0.0.1:${port}/postgres`;
  process.env[SHARED_POSTGRES_FAILURE_VARIABLE] = failure;
  const postgres = startPostgres({ port }).catch((error: Error) => {
    writeFileSync(failure, error.message);
    return undefined;
  });
  globalThis.signalboxSharedServices = { postgres };
}
