import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateAdminToken } from '@signalbox/accounts';
import type { GatewayLogger } from '@signalbox/express';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from './default-config';
import { startExampleServer, type ExampleServer } from './start-example-server';

const root = mkdtempSync(join(tmpdir(), 'signalbox-live-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const adminToken = generateAdminToken();

function writeConfig(name: string, extra: Record<string, unknown>): string {
  const path = join(root, name);
  writeFileSync(path, JSON.stringify({ ...createDefaultConfig(EMBEDDED_SIMULATOR), ...extra }));
  return path;
}

async function admin(server: ExampleServer, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, requestId: response.headers.get('x-request-id'), body: (await response.json()) as Record<string, unknown> };
}

describe('the example server\'s live configuration', () => {
  it('answers 409 CONFIG_READ_ONLY in the admin envelope to a change when config.source is "file", and shows the file', async () => {
    const configPath = writeConfig('file-mode.json', { config: { source: 'file' } });
    const server = await startExampleServer({ port: 0, configPath, storage: { kind: 'memory', adminToken }, environment: {} });
    try {
      const shown = await admin(server, 'GET', '/config');
      expect(shown.body).toMatchObject({ source: 'file', version: null });
      expect((shown.body['document'] as { upstreams: Record<string, { baseURL: string }> }).upstreams['simulator-chat']!.baseURL).toBe(`${EMBEDDED_SIMULATOR}/v1`);
      const refused = await admin(server, 'POST', '/config/versions', { document: shown.body['document'] });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: { code: 'config_read_only', type: 'invalid_request_error' } });
      expect(refused.requestId).toMatch(/^req_/);
      expect((await admin(server, 'POST', '/config/versions/1/rollback')).status).toBe(409);
    } finally {
      await server.close(0);
    }
  });

  it('keeps embedded:simulator in the stored version, and serves a route added through the admin API once the change is answered', async () => {
    const warnings: string[] = [];
    const logger: GatewayLogger = { info: () => undefined, error: () => undefined, warn: (_object, message) => void warnings.push(message ?? '') };
    const server = await startExampleServer({ port: 0, storage: { kind: 'memory', adminToken }, environment: {}, logger });
    try {
      const current = await admin(server, 'GET', '/config');
      expect(current.body).toMatchObject({ source: 'store', version: 1, author: 'config-file' });
      const document = current.body['document'] as { upstreams: Record<string, { baseURL: string }>; routes: object[] };
      expect(document.upstreams['simulator-chat']!.baseURL).toBe(`${EMBEDDED_SIMULATOR}/v1`);
      const added = { model: 'added-live', interfaces: ['chat'], targets: [{ upstream: 'simulator-chat', model: 'sim-1' }] };
      const changed = await admin(server, 'POST', '/config/versions', { document: { ...document, routes: [...document.routes, added] }, baseVersion: 1 });
      expect(changed.status).toBe(201);
      expect(changed.body).toMatchObject({ version: 2, author: 'admin-token' });
      const answer = await fetch(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.demoKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'added-live', messages: [{ role: 'user', content: 'hello' }], max_tokens: 8 }),
      });
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { model: string }).model).toBe('added-live');
      expect(server.gateway.engine.routes.map(route => route.model)).toContain('added-live');
      expect(warnings).toEqual([]);
    } finally {
      await server.close(0);
    }
  });
});
