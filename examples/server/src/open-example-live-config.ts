import { randomBytes } from 'node:crypto';
import { createConfigSealer, createMemoryConfigVersions, type AccountStore } from '@signalbox/accounts';
import { ConfigError, openLiveConfig, parseGatewayConfig, systemClock, type Engine, type LiveConfig, type PriceCatalog } from '@signalbox/engine';
import type { GatewayLogger } from '@signalbox/express';
import { codecs as defaultCodecs, kinds as defaultKinds } from './codecs';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from './default-config';
import { SERVER_SECTIONS, substituteSimulator, type LoadedConfigFile } from './load-config-file';
import type { ExampleServerOptions } from './start-example-server';
import { StartUpError } from './start-up-error';

/** What the example server opened before its live configuration: the store, the config file (absent: the default config), the simulator. */
export type OpenedForLiveConfig = {
  store: AccountStore;
  file: LoadedConfigFile | undefined;
  simulatorURL: string;
  priceCatalog: PriceCatalog | undefined;
  /** The storage's server secret, which config secrets are sealed under; absent (memory): a random one for this process. */
  serverSecret: string | undefined;
};

/**
 * The example server's live configuration: versions in its store (seeded from the config file, or
 * the embedded default config), unless the file sets `config.source: "file"` or the host's store
 * keeps no versions. `embedded:simulator` is kept in stored versions and replaced by this start's
 * simulator address only when a version is applied.
 */
export async function openExampleLiveConfig(options: ExampleServerOptions, opened: OpenedForLiveConfig): Promise<LiveConfig> {
  const { store, file, simulatorURL, serverSecret, priceCatalog } = opened;
  const codecs = options.codecs ?? defaultCodecs;
  const versions = store.configVersions;
  const source = versions === undefined ? 'file' : (file?.live?.source ?? 'store');
  const sealer = file?.live?.secrets === 'encrypted' ? createConfigSealer(serverSecret ?? randomBytes(32).toString('hex')) : undefined;
  const parse = (input: unknown) =>
    parseGatewayConfig(substituteSimulator(input, simulatorURL), {
      codecs,
      hostSections: SERVER_SECTIONS,
      ...(priceCatalog && { priceCatalog }),
    });
  try {
    const live = await openLiveConfig({
      source,
      versions: versions ?? createMemoryConfigVersions(),
      file: file?.input ?? (createDefaultConfig(EMBEDDED_SIMULATOR) as Record<string, unknown>),
      parse,
      kinds: options.kinds ?? defaultKinds,
      ...(sealer && { prepare: sealer.open, seal: sealer.seal }),
      now: (options.clock ?? systemClock).now,
    });
    if (live.fileDiffers) {
      options.logger?.warn(
        { configVersion: live.version },
        'the config file\'s routes or upstreams differ from the config version in the store, which is the one in force (config.source: "store"); change them through the admin API or the panel, or set config.source to "file"',
      );
    }
    return live;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const where = options.configPath ?? 'the default config';
    throw new StartUpError(
      `the config in the store (or ${where}, to seed it) does not check out: ${error.problems.join('; ')}; roll back to a good version with the admin API, or set config.source to "file" in ${where}`,
      { cause: error },
    );
  }
}

/** Keeps the engine on the newest version, each one applied (or not, and why) said in the log; returns the stop. */
export function followWithLogs(live: LiveConfig, engine: Engine, logger: GatewayLogger | undefined): () => void {
  return live.follow({
    clock: engine.clock,
    apply: next => void engine.applyConfig(next),
    onApplied: version => logger?.info({ configVersion: version }, 'config version applied: new requests use its routes, upstreams and prices'),
    onError: (error, version) => logger?.warn({ err: error, configVersion: version }, 'config version not applied here: this instance keeps the one it runs'),
  });
}
