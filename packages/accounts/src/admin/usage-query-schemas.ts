import { z } from 'zod';

/** The longest id, model or protocol a query may name; longer values are refused, never echoed. */
const MAX_NAME_CHARS = 200;
const name = z.string().min(1).max(MAX_NAME_CHARS);
const UNIX_MILLISECONDS = /^\d{1,15}$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_TIME_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * A point in time as a query gives it: unix milliseconds (`1767225600000`, a number or digits), an
 * ISO 8601 time with its offset (`2026-01-01T00:00:00Z`) or a date (`2026-01-01`, UTC midnight).
 */
const time = z.union([z.number(), z.string()]).transform((value, context) => {
  const text = String(value).trim();
  const parsed = UNIX_MILLISECONDS.test(text)
    ? Number(text)
    : ISO_DATE.test(text) || ISO_TIME_WITH_OFFSET.test(text)
      ? Date.parse(text)
      : Number.NaN;
  if (Number.isSafeInteger(parsed) && parsed >= 0) return parsed;
  context.addIssue({ code: 'custom', message: 'must be unix milliseconds or an ISO 8601 time with its offset, such as 2026-01-01T00:00:00Z' });
  return z.NEVER;
});

/** An integer from a query string (`'50'`) or a number, within bounds. */
const integer = (minimum: number, maximum: number) =>
  z
    .union([z.number(), z.string().regex(/^\d{1,10}$/, 'must be a whole number')])
    .transform(Number)
    .pipe(z.number().int().min(minimum).max(maximum));

/** A ledger row's outcome, as a filter takes it and a row shows it. */
export const usageOutcomeSchema = z.enum(['completed', 'incomplete', 'failed', 'error', 'client-aborted', 'interrupted']);
/** The span of one row of a usage summary. */
export const usageBucketSchema = z.enum(['minute', 'hour', 'day']);
/** What a usage summary may split its rows by. */
export const usageGroupBySchema = z.enum(['model', 'key', 'status', 'protocol', 'upstream']);

/** The filters every usage query takes (`from` inclusive, `to` exclusive). */
export const usageFilterShape = {
  from: time.optional().meta({ description: 'From this time, inclusive: unix milliseconds, an ISO 8601 time with its offset or a date.' }),
  to: time.optional().meta({ description: 'Until this time, exclusive: unix milliseconds, an ISO 8601 time with its offset or a date.' }),
  model: name.optional(),
  keyId: name.optional(),
  accountId: name.optional(),
  status: integer(100, 599).optional(),
  outcome: usageOutcomeSchema.optional(),
  protocol: name.optional(),
};

/** An opaque cursor from a previous page: bounded, printable. */
const cursor = z
  .string()
  .min(1)
  .max(500)
  .regex(/^[\w.:=+/-]+$/, 'must be the nextCursor of a previous page')
  .meta({ description: 'The `nextCursor` of the previous page.' });

/** The most rows one page of the ledger may ask for. */
export const MAX_USAGE_PAGE = 1000;

export const usagePageQuerySchema = z
  .object({ ...usageFilterShape, limit: integer(1, MAX_USAGE_PAGE).default(50), cursor: cursor.optional() })
  .strict();

export const usageSummaryQuerySchema = z
  .object({
    ...usageFilterShape,
    bucket: usageBucketSchema.default('hour'),
    groupBy: usageGroupBySchema.optional(),
  })
  .strict();

export const balanceEventsQuerySchema = z
  .object({ limit: integer(1, MAX_USAGE_PAGE).default(50), cursor: cursor.optional() })
  .strict();

/** The filters and paging of an audit log listing (`from` inclusive, `to` exclusive). */
export const auditPageQuerySchema = z
  .object({
    actor: name.optional(),
    accountId: name.optional(),
    entityType: name.optional(),
    entityId: name.optional(),
    action: name.optional(),
    from: usageFilterShape.from,
    to: usageFilterShape.to,
    limit: integer(1, MAX_USAGE_PAGE).default(50),
    cursor: cursor.optional(),
  })
  .strict();
