import { z } from 'zod';

const versionNumber = z.int().positive();
const isoTime = z.string().meta({ description: 'ISO 8601, UTC.' });

/** A whole number from a query string (`'20'`) or a number, within bounds. */
const integer = (minimum: number, maximum: number) =>
  z
    .union([z.number(), z.string().regex(/^\d{1,10}$/, 'must be a whole number')])
    .transform(Number)
    .pipe(z.number().int().min(minimum).max(maximum));

/**
 * The live part of the gateway config, as the config file writes it: `upstreams` and `routes` (with
 * their prices). Checked here for its shape; every member is then checked by the gateway's own
 * config schema, as the file is.
 */
export const configDocumentSchema = z
  .object({
    upstreams: z.record(z.string(), z.unknown()).meta({ description: 'As `upstreams` in the config file.' }),
    routes: z.array(z.unknown()).meta({ description: 'As `routes` in the config file, prices included.' }),
  })
  .strict();

/** A change: the whole new document, and the version it was edited from (refused with 409 if another change came first). */
export const changeConfigSchema = z
  .object({
    document: configDocumentSchema,
    baseVersion: z.int().nonnegative().optional().meta({ description: 'The version the document was edited from; absent: whatever is newest.' }),
  })
  .strict();

export const configVersionsQuerySchema = z
  .object({
    limit: integer(1, 100).default(20),
    cursor: z.string().regex(/^\d{1,10}$/, 'must be a previous page\'s nextCursor').optional(),
  })
  .strict();

export const configDiffQuerySchema = z
  .object({ against: integer(0, 2_147_483_647).optional().meta({ description: 'The version to compare with; default the one before.' }) })
  .strict();

const changeSchema = z.object({
  path: z.string().meta({ description: 'Dotted path in the document (`routes.0.pricing.inputPerMillion`).' }),
  kind: z.enum(['added', 'removed', 'changed']),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});

const versionFields = {
  version: versionNumber,
  author: z.string().meta({ description: 'Who made it: `admin-token`, `console:<token>`, `cli`, `config-file`.' }),
  createdAt: isoTime,
  restoredFrom: versionNumber.nullable().meta({ description: 'The version a rollback restored; null for a change.' }),
};

export const adminConfigSchema = z.object({
  source: z.enum(['store', 'file']).meta({ description: '`file`: the config file is the only source and changes are refused (409 `CONFIG_READ_ONLY`).' }),
  version: versionNumber.nullable(),
  author: z.string().nullable(),
  createdAt: isoTime.nullable(),
  document: z.record(z.string(), z.unknown()).meta({ description: 'Upstreams and routes, secrets masked as `[secret]` (sent back unchanged, a masked secret keeps its value).' }),
});

export const adminConfigVersionSummarySchema = z.object({ ...versionFields, changes: z.int() });

export const adminConfigVersionSchema = z.object({
  ...versionFields,
  document: z.record(z.string(), z.unknown()),
  diff: z.array(changeSchema).meta({ description: 'What changed from the version before, secrets masked.' }),
});

export const adminConfigDiffSchema = z.object({ from: z.int().nonnegative(), to: versionNumber, changes: z.array(changeSchema) });
