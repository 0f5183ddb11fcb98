/** One difference between two config documents: where (a dotted path) and the values on either side, secrets masked. */
export type ConfigChange = {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
};

/**
 * One saved version of the live configuration (the routes, upstreams and their prices): versions
 * are numbered 1, 2, … and never changed once written; a change or a rollback is a new version.
 */
export type ConfigVersion = {
  version: number;
  /** Who made it: the identity's actor label (`admin-token`, `console:<token name>`, `cli`, `config-file`). */
  author: string;
  /** Epoch ms. */
  createdAt: number;
  /** The document as the operator wrote it (`{ upstreams, routes }`, defaults not filled in); a plain key only sealed. */
  document: Record<string, unknown>;
  /** What changed from the version before it (all of it added, for version 1), secrets masked. */
  diff: ConfigChange[];
  /** The version whose document this one restored, for a rollback. */
  restoredFrom?: number;
};

/** A version as a listing shows it: without its document and diff, with the number of changes. */
export type ConfigVersionSummary = Omit<ConfigVersion, 'document' | 'diff'> & { changes: number };

/** What a change writes; the store numbers and stamps it. */
export type NewConfigVersion = Omit<ConfigVersion, 'version' | 'createdAt'>;

/**
 * Where versions of the live configuration are kept: every instance reads the newest, and the
 * newest is what routes their requests. Implementations must number versions without gaps and
 * never write two with the same number (`appendConfigVersion` is a compare-and-set on the newest).
 */
export type ConfigVersionStore = {
  /** The newest version's number, 0 when there is none: one indexed read, what instances poll. */
  latestConfigVersion(): Promise<number>;
  getConfigVersion(version: number): Promise<ConfigVersion | undefined>;
  /** Newest first: at most `limit`, those older than `before` when given. */
  listConfigVersions(options: { before?: number; limit: number }): Promise<ConfigVersionSummary[]>;
  /**
   * Writes version `expected + 1` stamped `now`, or resolves `undefined` when the newest is no longer
   * `expected` (another change came first; nothing was written).
   */
  appendConfigVersion(version: NewConfigVersion, expected: number, now: number): Promise<ConfigVersion | undefined>;
  /**
   * Tells `onVersion` each new version's number as soon as the store hears of it (PostgreSQL's
   * `NOTIFY`), and again after a reconnect; returns the function that stops it. A store without it is polled.
   */
  watchConfigVersions?(onVersion: (version: number) => void): () => void;
};
