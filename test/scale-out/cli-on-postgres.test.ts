import { randomBytes } from 'node:crypto';
import { createPostgresAccountStore } from '@signalbox/store-postgres';
import { runCli } from '../../examples/server/src/run-cli';
import { createTestDatabase, type TestDatabase } from '../helpers/start-postgres';

/** The management commands with SIGNALBOX_DATABASE_URL: they work on the database the instances share. */
describe('management commands on PostgreSQL', () => {
  let postgres: TestDatabase;
  const serverSecret = randomBytes(32).toString('hex');
  beforeAll(async () => {
    postgres = await createTestDatabase();
  }, 30_000);
  afterAll(async () => {
    await postgres?.stop();
  });

  async function run(argv: string[], environment: NodeJS.ProcessEnv) {
    let output = '';
    let error = '';
    const code = await runCli(argv, { dataDirectory: '/nonexistent/signalbox-data', environment, write: text => (output += text), writeError: text => (error += text) });
    return { code, output, error };
  }

  it('creates an account and a key in the shared database, findable by every instance with the same secret', async () => {
    const environment = { SIGNALBOX_DATABASE_URL: postgres.url, SIGNALBOX_SERVER_SECRET: serverSecret };
    const account = await run(['accounts', 'create', '--name', 'team-a', '--balance', '5'], environment);
    expect([account.code, account.error]).toEqual([0, '']);
    const { id } = JSON.parse(account.output) as { id: string };
    const key = await run(['keys', 'create', '--account', id, '--name', 'ci'], environment);
    expect(key.code).toBe(0);
    // The secret on stderr, once; stdout holds the key's record only.
    const secret = /^ {2}(sbx-[A-Za-z0-9]+)$/m.exec(key.error)?.[1];
    expect(secret).toBeDefined();
    expect(key.output).not.toContain(secret);

    const store = await createPostgresAccountStore({ connectionString: postgres.url, serverSecret, holdSweepIntervalMs: 0 });
    try {
      expect(await store.findKeyBySecret(secret!)).toMatchObject({ accountId: id, name: 'ci', status: 'active' });
      expect(await store.getAccount(id)).toMatchObject({ name: 'team-a', balanceMicros: 5_000_000 });
    } finally {
      await store.close();
    }
  });

  it('refuses to run without SIGNALBOX_SERVER_SECRET, with exit code 1 and one line naming it', async () => {
    const result = await run(['accounts', 'list'], { SIGNALBOX_DATABASE_URL: postgres.url });
    expect(result.code).toBe(1);
    expect(result.error).toMatch(/^accounts list: SIGNALBOX_SERVER_SECRET: required with SIGNALBOX_DATABASE_URL[^\n]*\n$/);
  });
});
