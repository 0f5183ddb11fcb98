import { z } from 'zod';
import { readConfigFileSection } from './read-config-file-section';

const ENVIRONMENT_VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

const variableName = z.string().regex(ENVIRONMENT_VARIABLE, 'must be the name of an environment variable, such as SIGNALBOX_DATABASE_URL');
const milliseconds = z.number().int('must be a whole number of milliseconds').positive('must be above 0').max(999_999_999);

/**
 * A connection URL written in the file: of one of `protocols`, and without a password, since a
 * config file is copied, committed and shown in ways an environment variable is not.
 */
function connectionURL(protocols: readonly string[], shape: string) {
  return z.string().superRefine((text, context) => {
    const url = URL.parse(text);
    if (url === null || !protocols.includes(url.protocol)) {
      context.addIssue({ code: 'custom', message: `must be a URL of the shape ${shape}` });
    } else if (url.password !== '') {
      context.addIssue({
        code: 'custom',
        message: 'must not carry a password (the value is not shown): name the variable holding the password with passwordEnv, or give the whole URL by urlEnv',
      });
    }
  });
}

/** Exactly one of `url` and `urlEnv`. */
const oneURL = (section: { url?: string | undefined; urlEnv?: string | undefined }) => (section.url === undefined) !== (section.urlEnv === undefined);
const ONE_URL_MESSAGE = 'give either url (without a password) or urlEnv (the name of the variable holding the URL), not both and not neither';

const databaseSection = z
  .strictObject({
    url: connectionURL(['postgres:', 'postgresql:'], 'postgres://USER@HOST:5432/DATABASE').optional(),
    urlEnv: variableName.optional(),
    passwordEnv: variableName.optional(),
    serverSecretEnv: variableName.optional(),
    holdSweepIntervalMs: milliseconds.optional(),
    holdOwnerTimeoutMs: milliseconds.optional(),
    connectTimeoutMs: milliseconds.optional(),
    queryTimeoutMs: milliseconds.optional(),
    balanceLeaseMicros: z.number().int('must be a whole number of micro-units').nonnegative('must be 0 (off) or more').max(Number.MAX_SAFE_INTEGER).optional(),
    balanceLeaseIdleMs: milliseconds.optional(),
  })
  .refine(oneURL, { message: ONE_URL_MESSAGE });

const redisSection = z
  .strictObject({
    url: connectionURL(['redis:', 'rediss:'], 'redis://HOST:6379[/DB] (rediss:// for TLS)').optional(),
    urlEnv: variableName.optional(),
    passwordEnv: variableName.optional(),
    leaseMs: milliseconds.optional(),
    commandTimeoutMs: milliseconds.optional(),
  })
  .refine(oneURL, { message: ONE_URL_MESSAGE });

const storageSection = z.strictObject({ database: databaseSection.optional(), redis: redisSection.optional() });

/**
 * The config file's `storage` section: where several instances keep their shared state. It is the
 * example server's business, not the gateway's, so it is taken out of the file before the gateway
 * config is parsed. Secrets appear only as names of environment variables.
 */
export type ConfigFileStorage = z.infer<typeof storageSection>;

/**
 * Validates the `storage` section of the config file at `path` (absent: `undefined`). A problem is a
 * `ConfigFileError` naming the file and each path at fault
 * (`storage.database.url: must not carry a password …`), never echoing a value.
 */
export function readConfigFileStorage(path: string, section: unknown): ConfigFileStorage | undefined {
  return readConfigFileSection(path, 'storage', storageSection, section);
}
