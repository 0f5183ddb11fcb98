import { randomBytes } from 'node:crypto';
import { createConfigSealer, createMemoryConfigVersions, type AccountStore } from '@signalbox/accounts';
import type { Codec, UpstreamKind } from '@signalbox/core';
import { ConfigError, openLiveConfig, parseGatewayConfig, type LiveConfig, type PriceCatalog } from '@signalbox/engine';
import { createDefaultConfig, EMBEDDED_SIMULATOR } from './default-config';
import { SERVER_SECTIONS, substituteSimulator, type LoadedConfigFile } from './load-config-file';
import { StartUpError } from './start-up-error';

export type ExampleLiveConfigOptions = {
  store: AccountStore;
  /** The config file, when there is one (else the embedded default config is the file). */
  file: LoadedConfigFile | undefined;
  configPath: string | undefined;
  simulatorURL: string;
  codecs: readonly Codec[];
  kinds: readonly UpstreamKind[];
  priceCatalog: PriceCatalog | undefined;
  /** The storage's server secret, which config secrets are sealed under; absent (memory): a random one for this process. */
  serverSecret: string | undefined;
  now(): number;
};

/**
 * The example server's live configuration: versions in its store (seeded from the config file, or
 * the embedded default config), unless the file sets `config.source: "file"` or the host's store
 * keeps no versions. `embedded:simulator` is kept in stored versions and replaced by this start's
 * simulator address only when a version is applied.
 */
export async function openExampleLiveConfig(options: ExampleLiveConfigOptions): Promise<LiveConfig> {
  const { store, file, simulatorURL, codecs } = options;
  const versions = store.configVersions;
  const source = versions === undefined ? 'file' : (file?.live?.source ?? 'store');
  const sealer = file?.live?.secrets === 'encrypted' ? createConfigSealer(options.serverSecret ?? randomBytes(32).toString('hex')) : undefined;
  const parse = (input: unknown) =>
    parseGatewayConfig(substituteSimulator(input, simulatorURL), {
      codecs,
      hostSections: SERVER_SECTIONS,
      ...(options.priceCatalog && { priceCatalog: options.priceCatalog }),
    });
  try {
    return await openLiveConfig({
      source,
      versions: versions ?? createMemoryConfigVersions(),
      file: file?.input ?? (createDefaultConfig(EMBEDDED_SIMULATOR) as Record<string, unknown>),
      parse,
      kinds: options.kinds,
      ...(sealer && { prepare: sealer.open, seal: sealer.seal }),
      now: options.now,
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const where = options.configPath ?? 'the default config';
    throw new StartUpError(
      `the config in the store (or ${where}, to seed it) does not check out: ${error.problems.join('; ')}; roll back to a good version with the admin API, or set config.source to "file" in ${where}`,
      { cause: error },
    );
  }
}
