import { boundClientText, GatewayError, type ValidationIssue } from '@signalbox/core';
import type { ConsoleIdentity } from '../admin/console-identity';
import type { RecordAudit } from '../admin/create-audit-methods';
import { found, notFound, parseInput, requireAdmin } from '../admin/console-scope';
import { keepMaskedSecrets, maskConfigSecrets, secretPathsIn } from './config-secrets';
import { changeConfigSchema, configDiffQuerySchema, configVersionsQuerySchema } from './config-schemas';
import type { ConfigVersion, ConfigVersionStore } from './config-version-store';
import { diffConfigDocuments } from './diff-config-documents';

/** A config document: `{ upstreams, routes }` as the config file writes them. */
export type ConfigDocument = Record<string, unknown>;

/** How the gateway's live configuration is edited, from the host that knows the gateway's schema. */
export type ConfigEditing = {
  /** `store`: versions in the store, changed through the admin API; `file`: the config file only (changes 409 `CONFIG_READ_ONLY`). */
  source: 'store' | 'file';
  versions: ConfigVersionStore;
  /** The config file's document: what `getConfig` shows in `file` mode. */
  fileDocument: ConfigDocument;
  /** Checks a document as the config file is checked (the gateway's schema, codecs and kinds): every problem by its path, none when good. */
  check(document: ConfigDocument): readonly ValidationIssue[];
  /**
   * Turns a checked document into what is stored (each plain secret sealed, a sealed one kept), or
   * names the secrets it may not store. Default: every secret value is refused (keys go in
   * environment variables). `check` is given documents with sealed values too (a rollback's, a kept secret).
   */
  seal?(document: ConfigDocument): { document: ConfigDocument; refused: readonly ValidationIssue[] };
};

/**
 * The admin API's config operations, admin only: the current config, its versions (list, one, a
 * diff between two) and the two changes, a new document or a rollback, each a new version written
 * only once the whole document checks out (400 listing every problem by its path); each new version
 * is recorded once in the audit log, entity `config` with the version's number.
 */
export function createConfigMethods(editing: ConfigEditing | undefined, now: () => number, recordAudit: RecordAudit) {
  const editor = () => {
    if (!editing) throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: 'This gateway has no live configuration.' });
    return editing;
  };
  const version = async (id: string) => found(await editor().versions.getConfigVersion(parseVersionId(id)), 'config version');
  return {
    /** The config in force: the newest version (store mode) or the file's document, secrets masked. */
    async getConfig(identity: ConsoleIdentity) {
      requireAdmin(identity, 'read the config');
      const { source, versions, fileDocument } = editor();
      const latest = source === 'store' ? await newest(versions) : undefined;
      return {
        source,
        version: latest?.version ?? null,
        author: latest?.author ?? null,
        createdAt: latest ? new Date(latest.createdAt).toISOString() : null,
        document: maskConfigSecrets(latest?.document ?? fileDocument),
      };
    },
    /** Versions newest first, `limit` (1–100, default 20) at a time from `cursor` (a page's `nextCursor`). */
    async listConfigVersions(identity: ConsoleIdentity, query: unknown) {
      requireAdmin(identity, 'read the config');
      const { limit, cursor } = parseInput(configVersionsQuerySchema, query);
      const page = await editor().versions.listConfigVersions({ limit, ...(cursor !== undefined && { before: Number(cursor) }) });
      const last = page.at(-1);
      return {
        data: page.map(summary => ({ ...presentStamp(summary), changes: summary.changes })),
        nextCursor: page.length === limit && last && last.version > 1 ? String(last.version) : null,
      };
    },
    async getConfigVersion(identity: ConsoleIdentity, id: string) {
      requireAdmin(identity, 'read the config');
      const found = await version(id);
      return { ...presentStamp(found), document: maskConfigSecrets(found.document), diff: found.diff };
    },
    /** What changed from version `against` (default: the one before; 0: nothing) to version `id`. */
    async diffConfigVersions(identity: ConsoleIdentity, id: string, query: unknown) {
      requireAdmin(identity, 'read the config');
      const to = await version(id);
      const from = parseInput(configDiffQuerySchema, query).against ?? to.version - 1;
      const before = from === 0 ? {} : (await version(String(from))).document;
      return { from, to: to.version, changes: diffConfigDocuments(before, to.document) };
    },
    /** Body `{ document, baseVersion? }`: the whole new document; written as the next version once it checks out. */
    async changeConfig(identity: ConsoleIdentity, body: unknown) {
      requireAdmin(identity, 'change the config');
      refuseReadOnly(editor());
      const { document, baseVersion } = parseInput(changeConfigSchema, body);
      return writeVersion(editor(), identity, document, { now, recordAudit, baseVersion });
    },
    /** Makes version `id`'s document the config again, as a new version (checked again: the gateway may have changed since). */
    async rollbackConfig(identity: ConsoleIdentity, id: string) {
      requireAdmin(identity, 'change the config');
      refuseReadOnly(editor());
      const restored = await version(id);
      return writeVersion(editor(), identity, restored.document, { now, recordAudit, restoredFrom: restored.version });
    },
  };
}

type WriteOptions = { now: () => number; recordAudit: RecordAudit; baseVersion?: number | undefined; restoredFrom?: number };

/** Checks, seals and appends a document as the next version; the newest unchanged when nothing differs. */
async function writeVersion(editing: ConfigEditing, identity: ConsoleIdentity, input: ConfigDocument, options: WriteOptions) {
  const { versions } = editing;
  const latest = await versions.latestConfigVersion();
  if (options.baseVersion !== undefined && options.baseVersion !== latest) throw versionConflict(latest);
  const current = latest === 0 ? undefined : await versions.getConfigVersion(latest);
  const kept = keepMaskedSecrets(input, current?.document);
  const document = kept.document as ConfigDocument;
  const secretsMissing = kept.unknown.map(path => ({ path, message: 'is masked, and there is no stored secret at this path to keep' }));
  const problems = [...secretsMissing, ...editing.check(document)];
  if (problems.length > 0) throw configRefused(problems);
  const sealed = sealConfigDocument(editing, document);
  if (sealed.refused.length > 0) throw configRefused(sealed.refused);
  const diff = diffConfigDocuments(current?.document ?? {}, sealed.document);
  if (current && diff.length === 0) return presentVersion(current);
  const restoredFrom = options.restoredFrom;
  const written = await versions.appendConfigVersion({ author: identity.actor, document: sealed.document, diff, ...(restoredFrom !== undefined && { restoredFrom }) }, latest, options.now());
  if (!written) throw versionConflict(await versions.latestConfigVersion());
  const entity = { type: 'config', id: String(written.version) };
  const before = current && maskConfigSecrets(current.document);
  await options.recordAudit(identity, entity, restoredFrom === undefined ? 'change' : 'rollback', before, maskConfigSecrets(written.document));
  return presentVersion(written);
}

/** A document as it may be stored: its secrets sealed by the editing's sealer, or (without one) each refused by its path. */
export function sealConfigDocument(editing: Pick<ConfigEditing, 'seal'>, document: ConfigDocument): { document: ConfigDocument; refused: readonly ValidationIssue[] } {
  return (editing.seal ?? refusePlainSecrets)(document);
}

function refusePlainSecrets(document: ConfigDocument) {
  const refused = secretPathsIn(document).map(path => ({
    path,
    message: 'is a secret, which is stored only with encrypted config secrets turned on: put the key in an environment variable named by apiKeyEnv',
  }));
  return { document, refused };
}

async function newest(versions: ConfigVersionStore): Promise<ConfigVersion | undefined> {
  const latest = await versions.latestConfigVersion();
  return latest === 0 ? undefined : versions.getConfigVersion(latest);
}

function presentStamp(version: Pick<ConfigVersion, 'version' | 'author' | 'createdAt' | 'restoredFrom'>) {
  return {
    version: version.version,
    author: version.author,
    createdAt: new Date(version.createdAt).toISOString(),
    restoredFrom: version.restoredFrom ?? null,
  };
}

function presentVersion(version: ConfigVersion) {
  return { ...presentStamp(version), document: maskConfigSecrets(version.document), diff: version.diff };
}

function parseVersionId(id: string): number {
  if (!/^[1-9]\d{0,9}$/.test(id)) throw notFound('config version');
  return Number(id);
}

function refuseReadOnly(editing: ConfigEditing): void {
  if (editing.source === 'store') return;
  throw new GatewayError({
    code: 'CONFIG_READ_ONLY',
    message: 'The config file is the only source of this gateway\'s config (config.source: "file"): change the file and restart, or set config.source to "store".',
  });
}

function versionConflict(latest: number): GatewayError {
  return new GatewayError({
    code: 'CONFIG_VERSION_CONFLICT',
    message: `The config changed meanwhile: version ${latest} is the newest. Reload it, apply your change to it, and send it with baseVersion ${latest}.`,
    param: 'baseVersion',
  });
}

/** A 400 listing every problem by its path (the message names up to ten, bounded), nothing written. */
export function configRefused(problems: readonly ValidationIssue[]): GatewayError {
  const issues = problems.map(problem => ({ path: boundClientText(problem.path), message: boundClientText(problem.message) }));
  const listed = issues.slice(0, 10).map(issue => `${issue.path}: ${issue.message}`).join('; ');
  const more = issues.length > 10 ? `; and ${issues.length - 10} more` : '';
  return new GatewayError({
    code: 'INVALID_REQUEST',
    message: `The config change was refused, nothing changed (${issues.length} problem${issues.length === 1 ? '' : 's'}): ${listed}${more}.`,
    param: `document.${issues[0]?.path ?? ''}`,
    issues,
  });
}
