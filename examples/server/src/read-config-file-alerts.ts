import { z } from 'zod';
import { readConfigFileSection } from './read-config-file-section';

const alertsSection = z.strictObject({
  /** Where alerts are sent, and the environment variable holding the signing secret (never the secret itself). */
  webhook: z.strictObject({
    url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
    secretEnv: z.string().trim().min(1, 'must name an environment variable').max(200),
  }),
  /** An account's balance below this many currency units. */
  balanceBelow: z.number().nonnegative().max(1e9).optional(),
  /** A budget's spend in its period at or above this percent of its limit. */
  budgetSpentPercent: z.number().gt(0).max(100).optional(),
  /** An upstream credential taken out of service. Default true. */
  credentialDisabled: z.boolean().default(true),
  /** An upstream's (or a credential's) circuit opened. Default true. */
  circuitOpen: z.boolean().default(true),
});

/** The config file's `alerts` section: thresholds and the webhook that receives them. */
export type ConfigFileAlerts = z.infer<typeof alertsSection>;

/** Validates the `alerts` section of the config file at `path` (absent: `undefined`); a problem names each path at fault. */
export function readConfigFileAlerts(path: string, section: unknown): ConfigFileAlerts | undefined {
  return readConfigFileSection(path, 'alerts', alertsSection, section);
}
