import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_IDENTITY, createAdminService, type ConfigVersionStore } from '@signalbox/accounts';
import { CONFIG_POLL_MS, openLiveConfig, parseGatewayConfig, type GatewayConfig } from '@signalbox/engine';
import { allCodecs, createManualSchedule } from '@signalbox/engine/testing';
import { systemClock } from '@signalbox/engine';
import { createSQLiteAccountStore } from '@signalbox/store-sqlite';

const directory = mkdtempSync(join(tmpdir(), 'signalbox-live-config-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const route = (model: string) => ({ model, interfaces: ['chat'], targets: [{ upstream: 'main', model }] });
const file = {
  upstreams: { main: { protocol: 'openai-chat', baseURL: 'http://127.0.0.1:9/v1', apiKeyEnv: 'MAIN_KEY' } },
  routes: [route('from-file')],
  bodyLimitBytes: 1_000_000,
};
const parse = (input: unknown) => parseGatewayConfig(input, { codecs: allCodecs });

/** Counts the newest-version reads a follower makes: what it costs the store per poll. */
function counting(versions: ConfigVersionStore) {
  const counted = { reads: 0, versions: { ...versions } };
  counted.versions.latestConfigVersion = () => {
    counted.reads += 1;
    return versions.latestConfigVersion();
  };
  return counted;
}

describe('live config on a SQLite data file', () => {
  it('seeds version 1 from the file, then follows a version another connection writes, with one read per poll', async () => {
    const path = join(directory, 'follow.sqlite');
    const gateway = createSQLiteAccountStore({ path, serverSecret: 'secret', holdSweepIntervalMs: 0 });
    const cli = createSQLiteAccountStore({ path, serverSecret: 'secret', holdSweepIntervalMs: 0 });
    try {
      const polled = counting(gateway.configVersions!);
      const live = await openLiveConfig({ source: 'store', versions: polled.versions, file, parse, kinds: [], now: () => 1_000 });
      expect(live.version).toBe(1);
      expect(live.config.routes.map(candidate => candidate.model)).toEqual(['from-file']);
      expect(live.config.bodyLimitBytes).toBe(1_000_000);
      expect(live.fileDiffers).toBe(false);
      expect(await gateway.configVersions!.getConfigVersion(1)).toMatchObject({ author: 'config-file', diff: [{ path: 'upstreams', kind: 'added' }, { path: 'routes', kind: 'added' }] });

      const applied: GatewayConfig[] = [];
      const versions: number[] = [];
      const timers = createManualSchedule();
      const stop = live.follow({ clock: { ...systemClock, schedule: timers.schedule }, apply: config => void applied.push(config), onApplied: version => void versions.push(version) });
      polled.reads = 0;
      // The operator's CLI on the same file (another connection) adds a route.
      const admin = createAdminService({ store: cli, adminTokenDigests: [], config: { ...live.editing, versions: cli.configVersions! } });
      await admin.changeConfig(ADMIN_IDENTITY, { document: { upstreams: file.upstreams, routes: [route('from-file'), route('added')] } });

      timers.advance(CONFIG_POLL_MS - 1);
      expect(polled.reads).toBe(0);
      timers.advance(1);
      await waitFor(() => versions.length === 1);
      expect(polled.reads).toBe(1);
      expect(versions).toEqual([2]);
      expect(applied[0]!.routes.map(candidate => candidate.model)).toEqual(['from-file', 'added']);
      // Nothing new: the next poll reads the newest version once and applies nothing.
      timers.advance(CONFIG_POLL_MS);
      await waitFor(() => polled.reads === 2);
      expect(applied).toHaveLength(1);
      stop();
      expect(timers.waiting()).toEqual([]);
    } finally {
      await Promise.all([gateway.close(), cli.close()]);
    }
  });

  it('keeps the file the only source with config.source "file", and a later store start does not overwrite what is stored', async () => {
    const path = join(directory, 'file-mode.sqlite');
    const store = createSQLiteAccountStore({ path, serverSecret: 'secret', holdSweepIntervalMs: 0 });
    try {
      const fileMode = await openLiveConfig({ source: 'file', versions: store.configVersions!, file, parse, kinds: [], now: () => 1_000 });
      expect(fileMode.version).toBeUndefined();
      expect(await store.configVersions!.latestConfigVersion()).toBe(0);
      await openLiveConfig({ source: 'store', versions: store.configVersions!, file, parse, kinds: [], now: () => 1_000 });
      const changedFile = { ...file, routes: [route('edited-in-file')] };
      const again = await openLiveConfig({ source: 'store', versions: store.configVersions!, file: changedFile, parse, kinds: [], now: () => 2_000 });
      expect(again.version).toBe(1);
      expect(again.config.routes.map(candidate => candidate.model)).toEqual(['from-file']);
      expect(again.fileDiffers).toBe(true);
    } finally {
      await store.close();
    }
  });
});

/** Lets the store's promises settle (SQLite answers within the turn; no clock is involved). */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100 && !condition(); turn++) await new Promise(resolve => setImmediate(resolve));
  if (!condition()) throw new Error('condition not met');
}
