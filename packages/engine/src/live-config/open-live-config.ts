import { diffConfigDocuments, sealConfigDocument, type ConfigDocument, type ConfigEditing, type ConfigVersionStore } from '@signalbox/accounts';
import type { UpstreamKind, ValidationIssue } from '@signalbox/core';
import type { Clock } from '../clock/clock';
import { checkConfigKinds } from '../config/check-config-kinds';
import { ConfigError } from '../config/config-error';
import type { GatewayConfig } from '../config/gateway-config';
import { configErrorIssues } from './config-error-issues';
import { followConfigVersions, type ConfigFollower, type ConfigFollowing } from './follow-config-versions';

/** Where the routes, upstreams and prices come from: versions in the store (the default), or the config file alone. */
export type ConfigSource = 'store' | 'file';

export type LiveConfigOptions = {
  source: ConfigSource;
  versions: ConfigVersionStore;
  /**
   * The gateway config as the file writes it (the host's own sections taken out), before defaults:
   * its `upstreams` and `routes` seed an empty store, its other sections hold in both modes.
   */
  file: Record<string, unknown>;
  /** Validates a whole config (the host's `parseGatewayConfig` with its codecs and price catalog); throws `ConfigError`. */
  parse(input: unknown): GatewayConfig;
  /** The kinds the gateway is given, which upstreams may name. */
  kinds: readonly UpstreamKind[];
  /** A stored document as the gateway takes it: the host's own markers replaced (a base URL placeholder), sealed secrets opened. Default: as stored. */
  prepare?(document: ConfigDocument): ConfigDocument;
  /** Seals a document's plain secrets before it is stored (`ConfigEditing.seal`); without it a secret value is refused. */
  seal?: ConfigEditing['seal'];
  now(): number;
};

export type LiveConfig = {
  source: ConfigSource;
  /** The config to start the engine with: the newest version's (store), or the file's. */
  config: GatewayConfig;
  /** Its version; `undefined` when the file is the source. */
  version: number | undefined;
  /** Whether the file's routes or upstreams differ from the stored version in force (worth a line in the log: the store wins). */
  fileDiffers: boolean;
  /** For `createAdminService({ config })`: the admin API's and the panel's config operations. */
  editing: ConfigEditing;
  /**
   * Keeps an engine on the newest version from now on (store mode; nothing to follow with the file):
   * a version written through `editing` is applied before its change is answered. Returns the stop.
   */
  follow(following: Pick<ConfigFollowing, 'apply' | 'onApplied' | 'onError' | 'pollMs'> & { clock: Clock }): () => void;
};

/**
 * Opens the live configuration: in store mode an empty store is first seeded with the file's routes
 * and upstreams (version 1, author `config-file`; of instances starting together one writes it),
 * then the newest version is the config. Throws `ConfigError` when that version (or the file, to
 * seed) does not check out.
 */
export async function openLiveConfig(options: LiveConfigOptions): Promise<LiveConfig> {
  const { source, versions, file } = options;
  const prepare = options.prepare ?? (document => document);
  const fileDocument = liveDocumentOf(file);
  const toConfig = (document: ConfigDocument) => options.parse({ ...file, ...prepare(document) });
  let follower: ConfigFollower | undefined;
  const editing: ConfigEditing = {
    source,
    // A version written here is applied here before the change is answered; the others hear of it from the store.
    versions: {
      ...versions,
      async appendConfigVersion(version, expected, now) {
        const written = await versions.appendConfigVersion(version, expected, now);
        if (written) await follower?.heard(written.version);
        return written;
      },
    },
    fileDocument,
    check: document => checkDocument(() => checkConfigKinds(toConfig(document), options.kinds)),
    ...(options.seal && { seal: options.seal }),
  };
  if (source === 'file') {
    return { source, config: options.parse(file), version: undefined, fileDiffers: false, editing, follow: () => () => undefined };
  }
  const newest = await seedIfEmpty(editing, options.now());
  const config = toConfig(newest.document);
  return {
    source,
    config,
    version: newest.version,
    fileDiffers: diffConfigDocuments(fileDocument, newest.document).length > 0,
    editing,
    follow(following) {
      follower = followConfigVersions({ ...following, versions, applied: newest.version, toConfig });
      return follower.stop;
    },
  };
}

/** The file's live part: its `upstreams` and `routes`, as written. */
function liveDocumentOf(file: Record<string, unknown>): ConfigDocument {
  return { upstreams: file['upstreams'] ?? {}, routes: file['routes'] ?? [] };
}

/** The newest version, after writing the file's document as version 1 when there is none. */
async function seedIfEmpty(editing: ConfigEditing, now: number) {
  const { versions } = editing;
  if ((await versions.latestConfigVersion()) === 0) {
    const sealed = sealConfigDocument(editing, editing.fileDocument);
    if (sealed.refused.length > 0) throw new ConfigError(sealed.refused.map(issue => `${issue.path}: ${issue.message}`));
    const diff = diffConfigDocuments({}, sealed.document);
    // Another instance seeding at the same moment wins the number; its version 1 is then read below.
    await versions.appendConfigVersion({ author: 'config-file', document: sealed.document, diff }, 0, now);
  }
  const latest = await versions.latestConfigVersion();
  return (await versions.getConfigVersion(latest))!;
}

/** The issues a check found, by path; none when it passed. */
function checkDocument(check: () => void): ValidationIssue[] {
  try {
    check();
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return configErrorIssues(error);
    throw error;
  }
}
