import { z } from 'zod';
import { keyLimitsSchema } from '../keys/key-limits';
import { usageBucketSchema, usageGroupBySchema, usageOutcomeSchema } from './usage-query-schemas';

/**
 * The admin API's answers as zod schemas: what `present-admin-records.ts` and
 * `present-usage-records.ts` write, for the gateway's OpenAPI document. Money is in currency units
 * (a decimal) and exactly in micro-units; times are ISO 8601 in UTC; absent values are `null`.
 */

const isoTime = z.string().meta({ description: 'ISO 8601, UTC.' });
const nullableIsoTime = isoTime.nullable();

export const adminAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  balance: z.number().meta({ description: 'Currency units.' }),
  balanceMicros: z.int(),
  reservedMicros: z.int().meta({ description: 'Held by requests in flight.' }),
  subscription: z.enum(['active', 'inactive']),
  group: z.string().nullable(),
  keyLimitCeiling: keyLimitsSchema.nullable().meta({
    description: 'Set by the admin token only: the most an account console token may give this account\'s keys, and their limits where their own say nothing, over the gateway\'s `limits.default`.',
  }),
  createdAt: isoTime,
});

export const adminKeySchema = z.object({
  id: z.string(),
  accountId: z.string(),
  name: z.string(),
  prefix: z.string().meta({ description: 'The visible start of the key (`sbx-AbCdEfGh`); the secret is never shown again.' }),
  status: z.enum(['active', 'disabled']),
  disabledBy: z.enum(['operator', 'account']).nullable().meta({
    description: 'Who disabled the key (`null` while active): only the admin token enables a key the operator disabled.',
  }),
  expiresAt: nullableIsoTime,
  group: z.string().nullable(),
  allowedModels: z.array(z.string()).nullable(),
  limits: keyLimitsSchema.nullable(),
  createdAt: isoTime,
});

export const adminConsoleTokenSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  name: z.string(),
  prefix: z.string(),
  status: z.enum(['active', 'disabled']),
  role: z.enum(['owner', 'viewer']).meta({ description: '`owner` manages its account (keys, console tokens, usage); `viewer` only reads it.' }),
  expiresAt: nullableIsoTime,
  createdAt: isoTime,
});

/** A created key: its secret, shown this once. */
export const adminCreatedKeySchema = z.object({ secret: z.string(), key: adminKeySchema });
/** A created console token: its secret, shown this once. */
export const adminCreatedConsoleTokenSchema = z.object({ secret: z.string(), token: adminConsoleTokenSchema });

export const adminMeSchema = z.union([
  z.object({ kind: z.literal('admin'), account: z.null(), token: z.null(), keyLimitCeiling: z.null() }),
  z.object({
    kind: z.literal('account'),
    role: z.enum(['owner', 'viewer']),
    account: adminAccountSchema,
    token: adminConsoleTokenSchema.nullable(),
    keyLimitCeiling: keyLimitsSchema.meta({ description: 'The most this account\'s console token may give its keys: the gateway\'s `limits.default` overlaid by the account\'s own ceiling.' }),
  }),
]);

export const adminRouteSchema = z.object({
  model: z.string(),
  description: z.string().nullable(),
  interfaces: z.array(z.object({ name: z.string(), protocol: z.string(), path: z.string() })),
  pricing: z
    .object({
      inputPerMillion: z.number(),
      outputPerMillion: z.number(),
      cachedInputPerMillion: z.number().nullable(),
      cacheWritePerMillion: z.number().nullable(),
      cacheWrite1hPerMillion: z.number().nullable(),
    })
    .nullable()
    .meta({ description: 'Currency units per million tokens; a null cache price (reads, 5-minute and 1-hour writes) is the input price.' }),
  contextTokens: z.int().nullable(),
  upstreamProtocol: z.string(),
  groups: z.array(z.string()).nullable().optional().meta({ description: 'Only for the admin token.' }),
});

export const adminUsageEntrySchema = z.object({
  time: isoTime,
  requestId: z.string(),
  upstreamRequestId: z.string().nullable(),
  accountId: z.string().nullable(),
  keyId: z.string().nullable(),
  keyPrefix: z.string().nullable(),
  model: z.string().nullable(),
  upstream: z.string().nullable(),
  upstreamModel: z.string().nullable(),
  upstreamCredential: z.string().nullable().meta({ description: "The config name of the upstream's credential the request used; never its key." }),
  upstreamKind: z.string().nullable().meta({ description: "The upstream's kind (`azure-openai`); null for its protocol's own API." }),
  protocol: z.string(),
  upstreamProtocol: z.string().nullable(),
  stream: z.boolean(),
  status: z.int(),
  outcome: usageOutcomeSchema,
  errorCode: z.string().nullable(),
  finishReason: z.string().nullable(),
  inputTokens: z.int(),
  outputTokens: z.int(),
  cacheReadTokens: z.int(),
  cacheWriteTokens: z.int(),
  cacheWrite5mTokens: z.int().meta({ description: 'Cache writes kept 5 minutes (and writes the upstream gave no lifetime): part of cacheWriteTokens.' }),
  cacheWrite1hTokens: z.int().meta({ description: 'Cache writes kept 1 hour: the rest of cacheWriteTokens.' }),
  reasoningTokens: z.int(),
  estimated: z.boolean(),
  cost: z.number(),
  costMicros: z.int(),
  uncoveredMicros: z.int(),
  cacheSavings: z.number(),
  cacheSavingsMicros: z.int().meta({ description: 'What the prompt cache saved: the cost with every input token at the input price, minus the cost; negative when cache writes cost more than reads saved.' }),
  latencyMs: z.number(),
  timeToFirstByteMs: z.number().nullable(),
  attempts: z.int(),
  warnings: z.array(z.string()),
  traceId: z.string().nullable().meta({ description: 'The OpenTelemetry trace id of the request; null when it was not traced.' }),
});

export const adminUsageSummarySchema = z.object({
  bucket: usageBucketSchema,
  groupBy: usageGroupBySchema.nullable(),
  from: isoTime,
  to: isoTime,
  data: z.array(
    z.object({
      bucketStart: isoTime,
      group: z.string().nullable(),
      requests: z.int(),
      inputTokens: z.int(),
      outputTokens: z.int(),
      cacheReadTokens: z.int(),
      cacheWriteTokens: z.int(),
      cost: z.number(),
      costMicros: z.int(),
      cacheSavings: z.number(),
      cacheSavingsMicros: z.int(),
      errors: z.int(),
      latencyP50Ms: z.number(),
      latencyP95Ms: z.number(),
    }),
  ),
});

export const adminBalanceEventSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  time: isoTime,
  kind: z.enum(['opening', 'top-up', 'adjustment']),
  delta: z.number(),
  deltaMicros: z.int(),
  balanceAfter: z.number(),
  balanceAfterMicros: z.int(),
});

const credentialState = z.enum(['healthy', 'cooling-down', 'circuit-open', 'circuit-half-open', 'disabled']);

/** One upstream credential: by name, never by key. */
export const adminUpstreamCredentialSchema = z.object({
  name: z.string(),
  state: credentialState,
  until: nullableIsoTime.meta({ description: 'The end of its cooldown (state cooling-down) or of its open circuit (circuit-open); null otherwise.' }),
  reason: z.enum(['upstream-401', 'upstream-403', 'key-missing']).nullable().meta({ description: 'Why it is disabled: the upstream refused its key, or its environment variable is unset.' }),
  weight: z.int(),
  apiKeyEnv: z.string().nullable().meta({ description: 'The environment variable its key is read from (a name, never the key).' }),
  inFlight: z.int(),
  lastErrorCode: z.string().nullable().meta({ description: 'The service code of its last failed attempt.' }),
  lastErrorAt: nullableIsoTime,
});

export const adminUpstreamSchema = z.object({
  name: z.string(),
  protocol: z.string(),
  state: z.enum(['healthy', 'circuit-open', 'circuit-half-open']).meta({ description: "The upstream's own circuit." }),
  until: nullableIsoTime,
  inFlight: z.int(),
  credentials: z.array(adminUpstreamCredentialSchema),
});

/** `{ data: [...] }`, the shape of every unpaged admin list. */
export const adminListOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });

/** `{ data: [...], nextCursor }`: a page, newest first; `nextCursor` is `null` on the last page. */
export const adminPageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), nextCursor: z.string().nullable() });

export const adminAuditEntrySchema = z.object({
  id: z.string(),
  time: isoTime,
  actor: z.string().meta({ description: '`admin-token`, `console:<token name>`, `sso:<issuer host>:<subject>`, `cli` or `config-file`.' }),
  accountId: z.string().nullable().meta({ description: 'The account the changed entity belongs to; `null` for the gateway\'s own.' }),
  entityType: z.string(),
  entityId: z.string(),
  action: z.string(),
  before: z.unknown().meta({ description: 'The entity before the change, secrets masked; `null` before a create.' }),
  after: z.unknown().meta({ description: 'The entity after the change, secrets masked.' }),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  requestId: z.string().nullable(),
});
