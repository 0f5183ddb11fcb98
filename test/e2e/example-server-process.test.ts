import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createSQLiteAccountStore } from '@signalbox/store-sqlite';
import OpenAI from 'openai';
import { openDataDirectory } from '../../examples/server/src/open-data-directory';
import { waitUntil } from '../helpers/throwaway-process';

const main = join(__dirname, '../../examples/server/dist/main.js');

/** Starts the built example server exactly as `scripts/start.sh` does, on a free port. */
function startProcess(
  environment: Record<string, string>,
  dataDirectory?: string,
): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string; stdout: () => string }> {
  if (!existsSync(main)) throw new Error(`Build first (pnpm exec tsc -b): ${main} is missing`);
  const directory = dataDirectory ?? mkdtempSync(join(tmpdir(), 'signalbox-data-'));
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', SIGNALBOX_DATA_DIR: directory, ...environment },
  });
  if (!dataDirectory) child.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  let output = '';
  let stdout = '';
  child.stdout.on('data', chunk => ((output += chunk), (stdout += chunk)));
  child.stderr.on('data', chunk => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 10_000);
    const onOutput = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      // Secrets created on this start go to stderr, which may arrive after stdout's banner that points to them.
      const secretsPending = stdout.includes('shown once on stderr') && !output.includes('(shown once)');
      if (match && !secretsPending) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output: () => output, stdout: () => stdout });
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.once('exit', code => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** Runs the server in a process expected to stop on its own (it cannot start), and returns how it ended. */
function runUntilExit(environment: Record<string, string>, dataDirectory: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main], {
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', SIGNALBOX_DATA_DIR: dataDirectory, ...environment },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', chunk => (stdout += chunk));
  child.stderr.on('data', chunk => (stderr += chunk));
  return new Promise((resolve, reject) => {
    // A server that started after all would run until killed.
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`the server did not stop:\n${stdout}${stderr}`))), 10_000);
    child.once('exit', status => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Runs a management command (`keys create …`) against a data folder and returns what it printed (a secret goes to stderr). */
function runCommand(dataDirectory: string, ...args: string[]): { stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', main, ...args], {
    env: { PATH: process.env.PATH ?? '', SIGNALBOX_DATA_DIR: dataDirectory },
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (result.status !== 0) throw new Error(`command failed: ${result.stderr}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  const exited = new Promise<number | null>(resolve => child.once('exit', resolve));
  child.kill('SIGTERM');
  return exited;
}

describe('the example server process', () => {
  it('prints its URL, models and snippets, serves SDK calls, and shuts down cleanly on SIGTERM', async () => {
    const demoKey = `sbx-${'k'.repeat(40)}`;
    const { child, url, output } = await startProcess({ SIGNALBOX_DEMO_KEY: demoKey });
    try {
      expect(output()).toContain('signalbox-sim');
      expect(output()).toContain(`${url}/v1/responses`);
      expect(output()).toContain("anthropic-version: 2023-06-01");
      expect(output()).not.toContain(demoKey); // a key given in the environment is never printed

      const health = await fetch(`${url}/healthz`);
      expect(await health.json()).toEqual({ status: 'ok' });
      const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: demoKey, maxRetries: 0 });
      const response = await openai.responses.create({ model: 'signalbox-sim', input: 'hello there' });
      expect(response.status).toBe('completed');
    } finally {
      const exited = new Promise<number | null>(resolve => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('prints a generated demo key once when none is given', async () => {
    const { child, output } = await startProcess({});
    const keys = output().match(/sbx-[A-Za-z0-9]{40}/g) ?? [];
    expect(keys).toHaveLength(1);
    child.kill('SIGTERM');
    await new Promise(resolve => child.once('exit', resolve));
  });

  it('refuses a bad config file with the path of the problem', async () => {
    const failure = await startProcess({ SIGNALBOX_CONFIG: join(__dirname, 'fixtures/bad-config.yaml') }).catch(error => String(error));
    expect(failure).toContain('routes.0.targets.0.upstream');
    expect(failure).toContain("unknown upstream 'nowhere'");
  });

  it('keeps keys in its data folder: shows a key and console token once, then never again; the CLI makes more', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'signalbox-data-'));
    try {
      const first = await startProcess({}, dataDirectory);
      const demoKey = /export SIGNALBOX_API_KEY=(sbx-[A-Za-z0-9]{40})/.exec(first.output())?.[1];
      expect(demoKey).toMatch(/^sbx-[A-Za-z0-9]{40}$/);
      expect(first.output()).toMatch(/sbx-admin-[0-9a-f]{48}/);
      expect(await stop(first.child)).toBe(0);

      const second = await startProcess({}, dataDirectory);
      expect(second.output()).not.toMatch(/sbx-[A-Za-z0-9]{40}/);
      expect(second.output()).not.toMatch(/sbx-admin-/);
      expect(second.output()).toContain('has keys already');
      expect(second.stdout()).toContain(`log in with it at ${second.url}/panel. Lost it? ./scripts/start.sh admin-token rotate prints a new one.`);
      const openai = (key: string) => new OpenAI({ baseURL: `${second.url}/v1`, apiKey: key, maxRetries: 0 });
      expect((await openai(demoKey!).responses.create({ model: 'signalbox-sim', input: 'still here?' })).status).toBe('completed');

      const accounts = JSON.parse(runCommand(dataDirectory, 'accounts', 'list').stdout) as { data: Array<{ id: string; name: string }> };
      const demo = accounts.data.find(account => account.name === 'demo')!;
      const created = runCommand(dataDirectory, 'keys', 'create', '--account', demo.id, '--name', 'cli');
      const secret = /^ {2}(sbx-[A-Za-z0-9]{40})$/m.exec(created.stderr)![1]!;
      expect(created.stdout).not.toContain(secret);
      expect((await openai(secret).responses.create({ model: 'signalbox-sim', input: 'new key' })).status).toBe('completed');
      expect(runCommand(dataDirectory, 'keys', 'list').stdout).not.toContain(secret);
      expect(await stop(second.child)).toBe(0);
    } finally {
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
});

describe('the example server process that cannot start', () => {
  it('on a busy port: one line naming PORT, a non-zero exit, and no secret made; the next start shows them once', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'signalbox-busy-'));
    const occupant = createServer();
    await new Promise<void>(resolve => occupant.listen(0, '127.0.0.1', resolve));
    const { port } = occupant.address() as AddressInfo;
    try {
      const busy = await runUntilExit({ PORT: String(port) }, dataDirectory);
      expect(busy.status).toBe(1);
      expect(busy.stderr.trim()).toBe(
        `PORT=${port}: 127.0.0.1:${port} is already in use (another server?); set PORT to a free port (PORT=0 picks one) or HOST to another address`,
      );
      expect(busy.stdout).not.toContain('listening on');
      expect(existsSync(join(dataDirectory, 'admin-token.sha256'))).toBe(false);

      const next = await startProcess({}, dataDirectory);
      const adminToken = /sbx-admin-[0-9a-f]{48}/.exec(next.output())?.[0];
      expect(next.output()).toMatch(/export SIGNALBOX_API_KEY=sbx-[A-Za-z0-9]{40}/);
      expect((await fetch(`${next.url}/admin/accounts`, { headers: { authorization: `Bearer ${adminToken}` } })).status).toBe(200);
      expect(await stop(next.child)).toBe(0);
    } finally {
      occupant.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });

  it('on a data folder another server runs on: one line naming SIGNALBOX_DATA_DIR and that server\'s process', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'signalbox-second-'));
    const first = await startProcess({}, dataDirectory);
    try {
      const second = await runUntilExit({}, dataDirectory);
      expect(second.status).toBe(1);
      expect(second.stderr.trim()).toBe(
        `SIGNALBOX_DATA_DIR=${dataDirectory}: another Signalbox server (process ${first.child.pid}) is running on this data folder; stop it, or start this one with SIGNALBOX_DATA_DIR set to another folder (and PORT to another port); instances that share keys and balances share a database instead (SIGNALBOX_DATABASE_URL)`,
      );
    } finally {
      expect(await stop(first.child)).toBe(0);
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
});

describe('the example server process keeps its secrets off stdout and its files private', () => {
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it('shows a generated demo key and console token once on stderr, and its stdout (banner and JSON logs) contains neither', async () => {
    const { child, url, output, stdout } = await startProcess({ LOG_LEVEL: 'info' });
    try {
      const demoKey = /export SIGNALBOX_API_KEY=(sbx-[A-Za-z0-9]{40})/.exec(output())?.[1];
      const adminToken = /sbx-admin-[0-9a-f]{48}/.exec(output())?.[0];
      expect(demoKey).toMatch(/^sbx-[A-Za-z0-9]{40}$/);
      expect(adminToken).toMatch(/^sbx-admin-/);
      const openai = new OpenAI({ baseURL: `${url}/v1`, apiKey: demoKey!, maxRetries: 0 });
      expect((await openai.responses.create({ model: 'signalbox-sim', input: 'log this request' })).status).toBe('completed');
      const admin = await fetch(`${url}/admin/accounts`, { headers: { authorization: `Bearer ${adminToken}` } });
      expect(admin.status).toBe(200);
    } finally {
      expect(await stop(child)).toBe(0);
    }
    // The JSON log lines are on stdout (the request was logged), and no secret is anywhere in it.
    expect(stdout()).toMatch(/^\{.*"msg":"http request"/m);
    expect(stdout()).not.toMatch(/sbx-[A-Za-z0-9]{40}/);
    expect(stdout()).not.toMatch(/sbx-admin-/);
  });

  it('tightens an existing data folder with mode 0755 to 0700 with a warning, and keeps its database files at 0600', async () => {
    const dataDirectory = join(mkdtempSync(join(tmpdir(), 'signalbox-data-')), 'data');
    mkdirSync(dataDirectory);
    chmodSync(dataDirectory, 0o755);
    try {
      const { child, output } = await startProcess({}, dataDirectory);
      try {
        expect(modeOf(dataDirectory)).toBe(0o700);
        expect(output()).toContain('had mode 0755; it is now 0700 (owner only)');
        for (const file of ['signalbox.sqlite', 'signalbox.sqlite-wal', 'signalbox.sqlite-shm', 'server-secret', 'admin-token.sha256']) {
          expect([file, modeOf(join(dataDirectory, file))]).toEqual([file, 0o600]);
        }
      } finally {
        expect(await stop(child)).toBe(0);
      }
    } finally {
      rmSync(join(dataDirectory, '..'), { recursive: true, force: true });
    }
  });
});

/**
 * A `kill -9` in the middle of streams: what the process had not committed is lost with its charge,
 * never one without the other. The example server is the file's single gateway, so its holds were in
 * its memory and died with it, without charge; the balance still equals the account's balance
 * events minus its ledger costs.
 */
describe('the example server process killed with SIGKILL under load', () => {
  it('leaves no hold behind and a balance that equals balance events minus ledger costs, to the micro-unit', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'signalbox-kill-'));
    const demoKey = `sbx-${'q'.repeat(40)}`;
    const { child, url } = await startProcess({ SIGNALBOX_DEMO_KEY: demoKey }, dataDirectory);
    try {
      const post = (input: string, stream: boolean) =>
        fetch(`${url}/v1/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${demoKey}` },
          body: JSON.stringify({ model: 'signalbox-sim', input, stream, max_output_tokens: 256 }),
        });
      // Answers that end (their rows and charges committed), then streams that the kill cuts.
      const answered = await Promise.all(Array.from({ length: 8 }, (_, index) => post(`short answer ${index}`, false)));
      for (const answer of answered) expect(((await answer.json()) as { status: string }).status).toMatch(/^(completed|incomplete)$/);
      // An answer's row is committed by the ledger's next batch, after its last byte: wait for the
      // eight in the file (read-only, as another process would) so that the kill falls after them.
      const rowsInFile = () => {
        const file = new DatabaseSync(join(dataDirectory, 'signalbox.sqlite'), { readOnly: true });
        try {
          return (file.prepare('SELECT COUNT(*) AS rows FROM usage').get() as { rows: number }).rows;
        } finally {
          file.close();
        }
      };
      await waitUntil(() => rowsInFile() >= 8, { what: () => `eight usage rows (${rowsInFile()} in the file)`, exited: () => child.exitCode !== null });
      const streams = await Promise.all(Array.from({ length: 8 }, () => post('[[sim:slow=50]] [[sim:tokens=200]] a long story', true)));
      for (const stream of streams) {
        expect(stream.status).toBe(200);
        await stream.body!.getReader().read(); // in flight: its hold is taken and its first bytes sent
      }
      const killed = new Promise(resolve => child.once('exit', (_code, signal) => resolve(signal)));
      child.kill('SIGKILL');
      expect(await killed).toBe('SIGKILL');
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }

    // The eight cut streams held their money in the process's memory: the file has no hold to release.
    const data = openDataDirectory(dataDirectory, {});
    const left = new DatabaseSync(data.databasePath, { readOnly: true });
    expect(left.prepare('SELECT COUNT(*) AS holds FROM reservations').get()).toEqual({ holds: 0 });
    expect(left.prepare('SELECT SUM(reserved_micros) AS reserved FROM accounts').get()).toEqual({ reserved: 0 });
    left.close();
    const store = createSQLiteAccountStore({ path: data.databasePath, serverSecret: data.serverSecret, holdSweepIntervalMs: 0 });
    try {
      const key = await store.findKeyBySecret(demoKey);
      const account = (await store.getAccount(key!.accountId))!;
      expect(account.reservedMicros).toBe(0);
      const { events } = await store.listBalanceEvents(account.id, { limit: 1_000 });
      const rows = (await store.listUsage({ accountId: account.id }, { limit: 1_000 })).entries;
      // The eight answers ended before the kill, so their rows (with their charges) were committed.
      expect(rows.filter(row => row.outcome === 'completed' || row.outcome === 'incomplete').length).toBeGreaterThanOrEqual(8);
      expect(rows.reduce((sum, row) => sum + row.costMicros, 0)).toBeGreaterThan(0);
      const expected = events.reduce((sum, event) => sum + event.deltaMicros, 0) - rows.reduce((sum, row) => sum + row.costMicros, 0);
      expect(account.balanceMicros).toBe(expected);
    } finally {
      await store.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  });
});
