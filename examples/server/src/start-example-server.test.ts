import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { digestAdminToken } from '@signalbox/accounts';
import { systemClock } from '@signalbox/engine';
import type { GatewayLogger } from '@signalbox/express';
import type { FirstStartSecrets } from './create-first-start-secrets';
import { describeStartUpError } from './describe-start-up-error';
import { startExampleServer } from './start-example-server';

const root = mkdtempSync(join(tmpdir(), 'signalbox-start-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A fresh data folder path, not yet created. */
let folders = 0;
const freshFolder = () => join(root, `data-${(folders += 1)}`);

/** A logger that keeps its warnings. */
function warningsLogger(): { logger: GatewayLogger; warnings: Array<{ object: Record<string, unknown>; message: string | undefined }> } {
  const warnings: Array<{ object: Record<string, unknown>; message: string | undefined }> = [];
  const ignore = () => undefined;
  return { logger: { info: ignore, error: ignore, warn: (object, message) => warnings.push({ object, message }) }, warnings };
}

describe('the example server\'s first start', () => {
  it('makes the admin token once it listens, and the admin API takes it at once, though the clock never moves', async () => {
    const path = freshFolder();
    const shown: Array<FirstStartSecrets & { url: string }> = [];
    const server = await startExampleServer({ port: 0, storage: { kind: 'data-directory', path }, clock: { ...systemClock, now: () => 0 }, environment: {}, onSecretsCreated: secrets => shown.push(secrets) });
    try {
      expect(shown).toEqual([{ url: server.url, adminToken: server.newAdminToken, demoKey: server.demoKey }]);
      expect(server.adminTokenSource).toBe('created');
      const answer = await fetch(`${server.url}/admin/accounts`, { headers: { authorization: `Bearer ${server.newAdminToken}` } });
      expect(answer.status).toBe(200);
    } finally {
      await server.close(0);
    }
    const again = await startExampleServer({ port: 0, storage: { kind: 'data-directory', path }, environment: {}, onSecretsCreated: secrets => shown.push(secrets) });
    await again.close(0);
    expect(shown).toHaveLength(1);
    expect({ token: again.newAdminToken, source: again.adminTokenSource, generated: again.demoKeyGenerated }).toEqual({ token: undefined, source: 'data-folder', generated: false });
  });

  it('still shows the admin token it made when a later step fails, and closes its listener', async () => {
    const path = freshFolder();
    const shown: FirstStartSecrets[] = [];
    let url = '';
    // A demo key of the wrong shape fails the demo key step, after the admin token was made.
    const failure = await startExampleServer({
      port: 0,
      storage: { kind: 'data-directory', path },
      environment: {},
      demoKey: 'sbx-short',
      onSecretsCreated: secrets => {
        url = secrets.url;
        shown.push({ ...secrets });
      },
    }).catch((error: unknown) => error);
    expect(String(failure)).toMatch(/API key shape/);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.adminToken).toMatch(/^sbx-admin-/);
    expect(shown[0]!.demoKey).toBeUndefined();
    expect(readFileSync(join(path, 'admin-token.sha256'), 'utf8').trim()).toBe(digestAdminToken(shown[0]!.adminToken!));
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });

  it('finds an unknown protocol or interface in the config file before it creates the data folder', async () => {
    const path = freshFolder();
    const configPath = join(root, 'unknown-protocol.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        upstreams: { sim: { protocol: 'openai-chats', baseURL: 'embedded:simulator/v1' } },
        routes: [{ model: 'm', interfaces: ['chat'], targets: [{ upstream: 'sim', model: 'sim-1' }] }],
      }),
    );
    const failure = await startExampleServer({ port: 0, configPath, storage: { kind: 'data-directory', path }, environment: {} }).catch((error: unknown) => error);
    expect(describeStartUpError(failure)).toBe(
      `SIGNALBOX_CONFIG=${configPath}: upstreams.sim.protocol: no codec speaks 'openai-chats' (known: openai-responses, anthropic-messages, openai-chat, google-gemini)`,
    );
    expect(existsSync(path)).toBe(false);
  });

  it('warns at start about each upstream whose apiKeyEnv is not set, naming the upstream and the variable, never a value', async () => {
    const configPath = join(root, 'upstream-keys.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        upstreams: {
          keyed: { protocol: 'openai-chat', baseURL: 'embedded:simulator/v1', apiKeyEnv: 'KEYED_API_KEY' },
          unkeyed: { protocol: 'openai-chat', baseURL: 'embedded:simulator/v1', apiKeyEnv: 'MISSING_API_KEY' },
        },
        routes: [{ model: 'm', interfaces: ['chat'], targets: [{ upstream: 'keyed', model: 'sim-1' }, { upstream: 'unkeyed', model: 'sim-1' }] }],
      }),
    );
    const { logger, warnings } = warningsLogger();
    const server = await startExampleServer({ port: 0, configPath, storage: { kind: 'memory' }, environment: { KEYED_API_KEY: 'sk-secret-value' }, logger });
    await server.close(0);
    const upstreamWarnings = warnings.filter(warning => 'upstream' in warning.object);
    expect(upstreamWarnings).toEqual([
      {
        object: { upstream: 'unkeyed', apiKeyEnv: 'MISSING_API_KEY' },
        message: "upstream unkeyed: MISSING_API_KEY is not set, so it serves no request (the route's next target does, or 503 NO_ACCOUNT_AVAILABLE); set it and restart the server",
      },
    ]);
    expect(JSON.stringify(warnings)).not.toContain('sk-secret-value');
  });

  it("warns at start about each pooled credential whose variable is not set, naming the upstream, the credential and the variable", async () => {
    const configPath = join(root, 'pooled-keys.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        upstreams: {
          pooled: {
            protocol: 'anthropic-messages',
            baseURL: 'embedded:simulator',
            credentials: [
              { name: 'team-a', apiKeyEnv: 'POOL_KEY_A' },
              { name: 'team-b', apiKeyEnv: 'POOL_KEY_B' },
            ],
          },
        },
        routes: [{ model: 'm', interfaces: ['messages'], targets: [{ upstream: 'pooled', model: 'sim-1' }] }],
      }),
    );
    const { logger, warnings } = warningsLogger();
    const server = await startExampleServer({ port: 0, configPath, storage: { kind: 'memory' }, environment: { POOL_KEY_A: 'sk-pool-secret-value' }, logger });
    const [pool] = server.gateway.engine.upstreamHealth();
    await server.close(0);
    expect(warnings.filter(warning => 'upstream' in warning.object)).toEqual([
      {
        object: { upstream: 'pooled', credential: 'team-b', apiKeyEnv: 'POOL_KEY_B' },
        message: "upstream pooled, credential team-b: POOL_KEY_B is not set, so this credential serves no request (the upstream's others do); set it and restart the server",
      },
    ]);
    expect(pool!.credentials.map(credential => [credential.name, credential.state, credential.reason])).toEqual([
      ['team-a', 'healthy', undefined],
      ['team-b', 'disabled', 'key-missing'],
    ]);
    expect(JSON.stringify(warnings)).not.toContain('sk-pool-secret-value');
  });

  it('tells a second server on the same data folder to use another SIGNALBOX_DATA_DIR', async () => {
    const path = freshFolder();
    const first = await startExampleServer({ port: 0, storage: { kind: 'data-directory', path }, environment: {} });
    try {
      const failure = await startExampleServer({ port: 0, storage: { kind: 'data-directory', path }, environment: {} }).catch((error: unknown) => error);
      expect(describeStartUpError(failure, { dataDirectory: path })).toBe(
        `SIGNALBOX_DATA_DIR=${path}: another Signalbox server (process ${process.pid}) is running on this data folder; stop it, or start this one with SIGNALBOX_DATA_DIR set to another folder (and PORT to another port); instances that share keys and balances share a database instead (SIGNALBOX_DATABASE_URL)`,
      );
    } finally {
      await first.close(0);
    }
  });
});
