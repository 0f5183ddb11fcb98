import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli';
import { startExampleServer } from './start-example-server';

/** Runs one command in process and returns its exit code and what it printed. */
async function run(dataDirectory: string, ...argv: string[]) {
  let output = '';
  let errors = '';
  const code = await runCli(argv, {
    dataDirectory,
    environment: {},
    write: text => (output += text),
    writeError: text => (errors += text),
  });
  return { code, output, errors };
}

describe('console-token commands', () => {
  let dataDirectory: string;
  beforeEach(() => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'signalbox-console-cli-'));
  });
  afterEach(() => rmSync(dataDirectory, { recursive: true, force: true }));

  it('creates a token printed once, lists it without the secret, and disables it; the server takes it as an account login until then', async () => {
    const account = JSON.parse((await run(dataDirectory, 'accounts', 'create', '--name', 'team-a')).output) as { id: string };
    const created = await run(dataDirectory, 'console-token', 'create', '--account', account.id, '--name', 'alice', '--expires-in-days', '30');
    expect(created.code).toBe(0);
    const record = JSON.parse(created.output) as { id: string; expiresAt: string; status: string };
    const secret = /^ {2}(sbx-console-[A-Za-z0-9]{40})$/m.exec(created.errors)?.[1];
    expect(created.errors.split('\n')[0]).toBe(`New console token ${record.id} for ${account.id} (shown once; only its digest is kept):`);
    expect(secret).toBeDefined();
    expect(created.output).not.toContain(secret);
    expect(record.status).toBe('active');
    const days = (Date.parse(record.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const listed = await run(dataDirectory, 'console-token', 'list', '--account', account.id);
    expect((JSON.parse(listed.output) as { data: { id: string }[] }).data.map(token => token.id)).toEqual([record.id]);
    expect(listed.output).not.toContain(secret);

    const server = await startExampleServer({ port: 0, host: '127.0.0.1', storage: { kind: 'data-directory', path: dataDirectory } });
    try {
      const me = () => fetch(`${server.url}/admin/me`, { headers: { authorization: `Bearer ${secret}` } });
      const before = await me();
      expect(before.status).toBe(200);
      expect(await before.json()).toMatchObject({ kind: 'account', account: { id: account.id } });

      const disabled = await run(dataDirectory, 'console-token', 'disable', record.id);
      expect([disabled.code, (JSON.parse(disabled.output) as { status: string }).status]).toEqual([0, 'disabled']);
      const after = await me();
      expect(after.status).toBe(401);
      expect(((await after.json()) as { code: string }).code).toBe('ADMIN_TOKEN_INVALID');
    } finally {
      await server.close(1_000);
    }
  });

  it('names the flag or id to fix: a bad --expires-in-days, an unknown account, an unknown token', async () => {
    const account = JSON.parse((await run(dataDirectory, 'accounts', 'create', '--name', 'team-a')).output) as { id: string };
    const badDays = await run(dataDirectory, 'console-token', 'create', '--account', account.id, '--name', 'x', '--expires-in-days', 'soon');
    expect([badDays.code, badDays.errors]).toEqual([2, "console-token create: --expires-in-days must be a whole number of days from 1 to 36500, such as 90 (got 'soon')\n"]);
    const noAccount = await run(dataDirectory, 'console-token', 'create', '--account', 'acct_missing', '--name', 'x');
    expect([noAccount.code, noAccount.errors]).toEqual([1, "console-token create: no account has that --account id (see './scripts/start.sh accounts list')\n"]);
    const noToken = await run(dataDirectory, 'console-token', 'disable', 'ctok_missing');
    expect([noToken.code, noToken.errors]).toEqual([1, "console-token disable: no console token has that ID (see './scripts/start.sh console-token list')\n"]);
    const missingName = await run(dataDirectory, 'console-token', 'create', '--account', account.id);
    expect(missingName.code).toBe(2);
    expect(missingName.errors).toContain('--name is required');
  });

  it('documents the commands in --help', async () => {
    const help = await run(dataDirectory, 'console-token', '--help');
    expect(help.output).toContain('./scripts/start.sh console-token create --account ID --name N [--role ROLE] [--expires-in-days DAYS]');
    expect(help.output).toContain('./scripts/start.sh console-token list [--account ID]');
    expect(help.output).toContain('./scripts/start.sh console-token disable ID');
  });
});
