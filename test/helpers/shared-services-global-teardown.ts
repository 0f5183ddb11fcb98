import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { SHARED_POSTGRES_FAILURE_VARIABLE } from './start-postgres';

/** Jest's global teardown for the integration tests: stops the run's shared PostgreSQL server (by PID) and deletes its folders. */
export default async function stopSharedServices(): Promise<void> {
  const services = globalThis.signalboxSharedServices;
  if (!services) return;
  globalThis.signalboxSharedServices = undefined;
  await (await services.postgres)?.stop();
  const failure = process.env[SHARED_POSTGRES_FAILURE_VARIABLE];
  if (failure) rmSync(dirname(failure), { recursive: true, force: true });
}
