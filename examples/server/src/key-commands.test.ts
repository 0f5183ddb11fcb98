import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli';
import { startExampleServer } from './start-example-server';

/** Runs one command in process and returns its exit code and what it printed on stdout and stderr. */
async function run(dataDirectory: string, environment: NodeJS.ProcessEnv, ...argv: string[]) {
  let output = '';
  let errors = '';
  const code = await runCli(argv, { dataDirectory, environment, write: text => (output += text), writeError: text => (errors += text) });
  return { code, output, errors };
}

/** Every secret the CLI prints: on stderr, in this shape, and nowhere else. */
const REVEALED = /^(New [A-Za-z ]+?)(?: \S+ for \S+)? \(shown once; only its digest is kept\):\n {2}(sbx-\S+)\n$/;

describe('keys create', () => {
  let dataDirectory: string;
  let accountId: string;
  const cli = (...argv: string[]) => run(dataDirectory, {}, ...argv);
  beforeEach(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'signalbox-key-cli-'));
    accountId = (JSON.parse((await cli('accounts', 'create', '--name', 'team-a', '--balance', '5')).output) as { id: string }).id;
  });
  afterEach(() => rmSync(dataDirectory, { recursive: true, force: true }));

  it('refuses --models naming a model no route serves, with the closest route, and creates no key', async () => {
    const refused = await cli('keys', 'create', '--account', accountId, '--name', 'typo', '--models', 'signalbox-sim,sim-via-chatt');
    expect([refused.code, refused.output]).toEqual([2, '']);
    expect(refused.errors).toBe(
      "keys create: --models: no route serves the model ID 'sim-via-chatt' (did you mean sim-via-chat?); " +
        'the routes are signalbox-sim, sim-via-responses, sim-via-messages, sim-via-chat, sim-responses-only\n',
    );
    expect(JSON.parse((await cli('keys', 'list')).output)).toEqual({ data: [] });

    const accepted = await cli('keys', 'create', '--account', accountId, '--name', 'two', '--models', 'signalbox-sim, sim-via-chat');
    expect(accepted.code).toBe(0);
    expect((JSON.parse(accepted.output) as { allowedModels: string[] }).allowedModels).toEqual(['signalbox-sim', 'sim-via-chat']);
  });

  it("checks --models against the routes of SIGNALBOX_CONFIG, and says why when that file cannot be read", async () => {
    const configPath = join(dataDirectory, 'gateway.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        upstreams: { simulator: { protocol: 'openai-chat', baseURL: 'embedded:simulator/v1' } },
        routes: [{ model: 'team-model', interfaces: ['chat'], targets: [{ upstream: 'simulator', model: 'sim-1' }] }],
      }),
    );
    const create = (environment: NodeJS.ProcessEnv, models: string) =>
      run(dataDirectory, environment, 'keys', 'create', '--account', accountId, '--name', models, '--models', models);
    const own = await create({ SIGNALBOX_CONFIG: configPath }, 'team-model');
    expect([own.code, own.errors]).toEqual([0, expect.stringMatching(/^New API key /)]);
    const builtIn = await create({ SIGNALBOX_CONFIG: configPath }, 'signalbox-sim');
    expect([builtIn.code, builtIn.errors]).toEqual([2, "keys create: --models: no route serves the model ID 'signalbox-sim'; the routes are team-model\n"]);
    const missing = await create({ SIGNALBOX_CONFIG: join(dataDirectory, 'missing.json') }, 'team-model');
    expect(missing.code).toBe(1);
    expect(missing.errors).toMatch(/^keys create: --models cannot be checked against the server's routes: .*missing\.json.*\n$/);
  });

  it('checks --models against the config version in force in the store once a server has seeded it', async () => {
    const server = await startExampleServer({ port: 0, host: '127.0.0.1', storage: { kind: 'data-directory', path: dataDirectory } });
    try {
      const versions = server.store.configVersions!;
      const seeded = (await versions.getConfigVersion(await versions.latestConfigVersion()))!;
      const routes = seeded.document['routes'] as { model: string }[];
      const live = { ...routes[0]!, model: 'live-model' };
      await versions.appendConfigVersion({ author: 'cli', document: { ...seeded.document, routes: [live] }, diff: [] }, seeded.version, Date.now());
    } finally {
      await server.close(1_000);
    }
    const accepted = await cli('keys', 'create', '--account', accountId, '--name', 'live', '--models', 'live-model');
    expect([accepted.code, (JSON.parse(accepted.output) as { allowedModels: string[] }).allowedModels]).toEqual([0, ['live-model']]);
    const refused = await cli('keys', 'create', '--account', accountId, '--name', 'gone', '--models', 'signalbox-sim');
    expect([refused.code, refused.errors]).toEqual([2, "keys create: --models: no route serves the model ID 'signalbox-sim'; the routes are live-model\n"]);
  });

  it("takes the panel's key limits as flags; the server holds the key to them", async () => {
    const created = await cli(
      'keys', 'create', '--account', accountId, '--name', 'limited',
      '--requests-per-minute', '1', '--tokens-per-minute', '50000', '--requests-in-flight', '2',
    );
    expect(created.code).toBe(0);
    expect((JSON.parse(created.output) as { limits: unknown }).limits).toEqual({ requests: 1, tokens: 50_000, concurrency: 2 });
    const secret = REVEALED.exec(created.errors)![2]!;

    const server = await startExampleServer({ port: 0, host: '127.0.0.1', storage: { kind: 'data-directory', path: dataDirectory } });
    try {
      const call = () =>
        fetch(`${server.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'signalbox-sim', messages: [{ role: 'user', content: 'Hello' }] }),
        });
      expect((await call()).status).toBe(200);
      const second = await call();
      expect([second.status, ((await second.json()) as { error: { code: string } }).error.code]).toEqual([429, 'rate_limit_exceeded']);
    } finally {
      await server.close(1_000);
    }

    for (const flag of ['--requests-per-minute', '--tokens-per-minute', '--requests-in-flight']) {
      const refused = await cli('keys', 'create', '--account', accountId, '--name', 'bad', flag, '0');
      expect([refused.code, refused.errors]).toEqual([2, `keys create: ${flag} must be a whole number of at least 1, such as 60 (got '0')\n`]);
    }
    expect((await cli('keys', 'create', '--help')).output).toContain(
      '[--requests-per-minute N] [--tokens-per-minute N] [--requests-in-flight N]',
    );
  });

  it('prints every secret the same way: on stderr, once, never on stdout', async () => {
    const key = await cli('keys', 'create', '--account', accountId, '--name', 'laptop');
    const token = await cli('console-token', 'create', '--account', accountId, '--name', 'alice');
    const admin = await cli('admin-token', 'rotate');
    const keyRecord = JSON.parse(key.output) as { id: string; prefix: string };
    const tokenRecord = JSON.parse(token.output) as { id: string };
    const revealed = [key, token, admin].map(result => {
      expect(result.code).toBe(0);
      const [, heading, secret] = REVEALED.exec(result.errors)!;
      expect(result.output).not.toContain(secret!);
      expect(result.output).not.toContain('"secret"');
      return [heading, secret!.replace(/[A-Za-z0-9]{40,}$/, '…')];
    });
    expect(revealed).toEqual([
      ['New API key', 'sbx-…'],
      ['New console token', 'sbx-console-…'],
      ['New admin token', 'sbx-admin-…'],
    ]);
    expect(key.errors.split('\n')[0]).toBe(`New API key ${keyRecord.id} for ${accountId} (shown once; only its digest is kept):`);
    expect(token.errors.split('\n')[0]).toBe(`New console token ${tokenRecord.id} for ${accountId} (shown once; only its digest is kept):`);
    expect(REVEALED.exec(key.errors)![2]!.startsWith(keyRecord.prefix)).toBe(true);
    expect(admin.output).toMatch(/^The old admin token no longer works; a server running on .+ accepts the new one within a second, without a restart\.\n$/);
  });
});
