import { z } from 'zod';

const positiveMilliseconds = z.number().int().positive();

/** Names an environment variable (never holds the key itself). */
export const environmentVariableName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name');

/**
 * A credential's name: how logs, metrics, the ledger, the admin API and the panel call it, so it
 * must be safe to show anywhere (letters, digits, `.`, `_`, `-`; at most 64).
 */
export const credentialNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit');

/** One key of an upstream's pool. */
export const credentialConfigSchema = z
  .object({
    name: credentialNameSchema,
    /** Name of the environment variable holding this credential's key. */
    apiKeyEnv: environmentVariableName,
    /** Its share of the upstream's requests relative to the others' (whole numbers, default 1). */
    weight: z.number().int().positive().max(1_000).default(1),
    /** Headers sent with this credential only (an organization or project header), over the upstream's own. */
    headers: z.record(z.string(), z.string()).default({}),
    /** Requests in flight on this credential at once; default the upstream's `connections`. */
    connections: z.number().int().positive().optional(),
  })
  .strict();

/**
 * When a credential, or a whole upstream, stops being tried after repeated server errors or
 * connection failures: open after `failures` of them within `windowMs` (a success in between
 * starts the count again), then after `openMs` one probe request is let through: its success
 * closes the circuit, its failure opens it again for `openMs`.
 */
export const circuitBreakerConfigSchema = z
  .object({
    failures: z.number().int().positive().default(5),
    windowMs: positiveMilliseconds.default(30_000),
    openMs: positiveMilliseconds.default(30_000),
  })
  .strict();

export const DEFAULT_CIRCUIT_BREAKER = { failures: 5, windowMs: 30_000, openMs: 30_000 } as const;

export type CredentialConfig = z.output<typeof credentialConfigSchema>;
export type CircuitBreakerConfig = z.output<typeof circuitBreakerConfigSchema>;
