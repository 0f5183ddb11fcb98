import { ADMIN_IDENTITY, createAdminService, createConfigSealer, MASKED_SECRET, type AccountStore, type ConfigEditing, type ConsoleIdentity } from '@signalbox/accounts';
import type { ContractContext } from './contract-context';

const ADMIN: ConsoleIdentity = { kind: 'admin', actor: 'admin-token', tokenDigest: 'digest' };
const route = (model: string, inputPerMillion = 1) => ({
  model,
  interfaces: ['chat'],
  targets: [{ upstream: 'main', model }],
  pricing: { inputPerMillion, outputPerMillion: 2 },
});
const upstreams = { main: { protocol: 'openai-chat', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MAIN_KEY' } };
const documentOf = (...routes: object[]) => ({ upstreams, routes });

/** A stand-in for the gateway's schema: every route needs a known upstream. */
function checkRoutes(document: Record<string, unknown>) {
  const routes = document['routes'] as { targets: { upstream: string }[] }[];
  return routes.flatMap((candidate, index) =>
    candidate.targets.flatMap((target, targetIndex) =>
      target.upstream in (document['upstreams'] as object) ? [] : [{ path: `routes.${index}.targets.${targetIndex}.upstream`, message: `unknown upstream '${target.upstream}'` }],
    ),
  );
}

function adminOn(store: AccountStore, source: ConfigEditing['source'] = 'store', seal?: ConfigEditing['seal']) {
  const config: ConfigEditing = { source, versions: store.configVersions!, fileDocument: documentOf(route('from-file')), check: checkRoutes, ...(seal && { seal }) };
  return createAdminService({ store, adminTokenDigests: [], config, now: () => 1_767_225_600_000 });
}

/** Config versions: numbered without gaps, written once each, listed newest first; diffs and rollbacks through the admin service. */
export function describeConfigVersions(context: ContractContext): void {
  describe('config versions', () => {
    const versions = () => context.store.configVersions!;

    it('starts with none, then writes version expected + 1 only while expected is the newest', async () => {
      expect(await versions().latestConfigVersion()).toBe(0);
      expect(await versions().getConfigVersion(1)).toBeUndefined();
      const first = await versions().appendConfigVersion({ author: 'config-file', document: documentOf(route('a')), diff: [] }, 0, 1_000);
      expect(first).toEqual({ version: 1, author: 'config-file', createdAt: 1_000, document: documentOf(route('a')), diff: [] });
      expect(await versions().appendConfigVersion({ author: 'cli', document: documentOf(), diff: [] }, 0, 2_000)).toBeUndefined();
      expect(await versions().appendConfigVersion({ author: 'cli', document: documentOf(), diff: [] }, 5, 2_000)).toBeUndefined();
      expect(await versions().latestConfigVersion()).toBe(1);
      expect(await versions().getConfigVersion(1)).toEqual(first);
    });

    it('lets exactly one of 20 writers racing for the same number write it', async () => {
      await versions().appendConfigVersion({ author: 'config-file', document: documentOf(), diff: [] }, 0, 1_000);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, index) => versions().appendConfigVersion({ author: `writer-${index}`, document: documentOf(route(`m${index}`)), diff: [] }, 1, 2_000)),
      );
      expect(results.filter(result => result !== undefined)).toHaveLength(1);
      expect(await versions().latestConfigVersion()).toBe(2);
    });

    it('lists summaries newest first, a page at a time', async () => {
      for (let version = 0; version < 5; version++) {
        await versions().appendConfigVersion({ author: 'cli', document: documentOf(route(`m${version}`)), diff: [{ path: 'routes.0', kind: 'added' }] }, version, 1_000 + version);
      }
      const page = await versions().listConfigVersions({ limit: 2 });
      expect(page).toEqual([
        { version: 5, author: 'cli', createdAt: 1_004, changes: 1 },
        { version: 4, author: 'cli', createdAt: 1_003, changes: 1 },
      ]);
      expect((await versions().listConfigVersions({ before: 4, limit: 10 })).map(summary => summary.version)).toEqual([3, 2, 1]);
    });

    it('saves a change with its author and diff, diffs two versions, and rolls back as a new version', async () => {
      const admin = adminOn(context.store);
      await versions().appendConfigVersion({ author: 'config-file', document: documentOf(route('a')), diff: [] }, 0, 1_000);
      const changed = await admin.changeConfig(ADMIN, { document: documentOf(route('a', 5), route('b')), baseVersion: 1 });
      expect(changed).toMatchObject({ version: 2, author: 'admin-token', restoredFrom: null });
      expect(changed.diff).toEqual(
        expect.arrayContaining([
          { path: 'routes.0.pricing.inputPerMillion', kind: 'changed', before: 1, after: 5 },
          { path: 'routes.1', kind: 'added', after: route('b') },
        ]),
      );
      const rolledBack = await admin.rollbackConfig(ADMIN_IDENTITY, '1');
      expect(rolledBack).toMatchObject({ version: 3, author: 'cli', restoredFrom: 1, document: documentOf(route('a')) });
      expect(await admin.diffConfigVersions(ADMIN, '3', { against: '1' })).toEqual({ from: 1, to: 3, changes: [] });
      expect((await admin.diffConfigVersions(ADMIN, '3', {})).changes).toContainEqual({ path: 'routes.1', kind: 'removed', before: route('b') });
      expect((await admin.getConfig(ADMIN)).version).toBe(3);
      await expect(admin.changeConfig(ADMIN, { document: documentOf(route('c')), baseVersion: 2 })).rejects.toMatchObject({ code: 'CONFIG_VERSION_CONFLICT', status: 409 });
      // Each new version once in the audit log, by its author; the refused change not at all.
      const audited = (await context.store.listAudit({ entityType: 'config' }, { limit: 10 })).entries;
      expect(audited.map(entry => [entry.entityId, entry.action, entry.actor])).toEqual([
        ['3', 'rollback', 'cli'],
        ['2', 'change', 'admin-token'],
      ]);
    });

    it('refuses a bad document whole, naming every path, and writes nothing', async () => {
      const admin = adminOn(context.store);
      const bad = { ...route('x'), targets: [{ upstream: 'nope', model: 'x' }, { upstream: 'gone', model: 'x' }] };
      const refusal = admin.changeConfig(ADMIN, { document: documentOf(route('a'), bad) });
      await expect(refusal).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        status: 400,
        param: 'document.routes.1.targets.0.upstream',
        issues: [
          { path: 'routes.1.targets.0.upstream', message: "unknown upstream 'nope'" },
          { path: 'routes.1.targets.1.upstream', message: "unknown upstream 'gone'" },
        ],
      });
      await expect(refusal).rejects.toThrow(/routes\.1\.targets\.1\.upstream/);
      expect(await versions().latestConfigVersion()).toBe(0);
    });

    it('never stores a secret header without a sealer, and never shows one', async () => {
      const admin = adminOn(context.store);
      const secretHeaders = { main: { ...upstreams.main, headers: { Authorization: 'Bearer sk-live-do-not-store' } } };
      await expect(admin.changeConfig(ADMIN, { document: { upstreams: secretHeaders, routes: [route('a')] } })).rejects.toMatchObject({
        code: 'INVALID_REQUEST',
        issues: [{ path: 'upstreams.main.headers.Authorization', message: expect.stringContaining('environment variable') }],
      });
      expect(await versions().latestConfigVersion()).toBe(0);
    });

    it('with encrypted secrets on, stores a secret header sealed under the server secret, shows it masked, and keeps it through an edit', async () => {
      const sealer = createConfigSealer('server-secret-a');
      const admin = adminOn(context.store, 'store', sealer.seal);
      const plain = 'sk-live-sealed-0123456789';
      const withSecret = { main: { ...upstreams.main, headers: { 'x-api-key': plain } } };
      const written = await admin.changeConfig(ADMIN, { document: { upstreams: withSecret, routes: [route('a')] } });
      expect(written.document).toMatchObject({ upstreams: { main: { headers: { 'x-api-key': MASKED_SECRET } } } });
      const stored = await versions().getConfigVersion(1);
      expect(JSON.stringify(stored)).not.toContain(plain);
      expect(() => createConfigSealer('server-secret-b').open(stored!.document)).toThrow(/another/);
      expect(sealer.open(stored!.document)).toMatchObject({ upstreams: { main: { headers: { 'x-api-key': plain } } } });
      // The panel sends the masked document back with one route added: the secret keeps its value.
      const masked = (await admin.getConfig(ADMIN)).document as { upstreams: object; routes: object[] };
      const edited = await admin.changeConfig(ADMIN, { document: { ...masked, routes: [...masked.routes, route('b')] }, baseVersion: 1 });
      expect(edited.diff).toEqual([{ path: 'routes.1', kind: 'added', after: route('b') }]);
      expect(sealer.open((await versions().getConfigVersion(2))!.document)).toMatchObject({ upstreams: { main: { headers: { 'x-api-key': plain } } } });
    });

    it('answers 409 CONFIG_READ_ONLY to changes when the file is the only source, and shows the file', async () => {
      const admin = adminOn(context.store, 'file');
      await expect(admin.changeConfig(ADMIN, { document: documentOf(route('a')) })).rejects.toMatchObject({ code: 'CONFIG_READ_ONLY', status: 409 });
      await expect(admin.rollbackConfig(ADMIN, '1')).rejects.toMatchObject({ code: 'CONFIG_READ_ONLY' });
      expect(await admin.getConfig(ADMIN)).toEqual({ source: 'file', version: null, author: null, createdAt: null, document: documentOf(route('from-file')) });
    });

    it('refuses an account console token', async () => {
      const admin = adminOn(context.store);
      const account: ConsoleIdentity = { kind: 'account', accountId: 'acct_1', tokenId: 'ctok_1', role: 'owner', actor: 'console:laptop' };
      await expect(admin.getConfig(account)).rejects.toMatchObject({ code: 'ADMIN_TOKEN_REQUIRED' });
      await expect(admin.changeConfig(account, { document: documentOf() })).rejects.toMatchObject({ code: 'ADMIN_TOKEN_REQUIRED' });
    });
  });
}
