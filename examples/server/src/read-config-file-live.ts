import { z } from 'zod';
import { readConfigFileSection } from './read-config-file-section';

const liveSection = z.strictObject({
  /**
   * `store` (the default): the routes, upstreams and prices live in the store as versions, changed
   * through the admin API and the panel; the file seeds an empty store. `file`: the file is the only
   * source, and changes through the API are refused (409 `CONFIG_READ_ONLY`).
   */
  source: z.enum(['store', 'file'], { error: 'must be "store" or "file"' }).optional(),
  /**
   * `environment` (the default): keys are named by `apiKeyEnv`, and a secret header value in the
   * config is refused. `encrypted`: such a value may be stored, sealed under the server secret.
   */
  secrets: z.enum(['environment', 'encrypted'], { error: 'must be "environment" or "encrypted"' }).optional(),
});

/** The config file's `config` section: where the live configuration is kept and how its secrets may be. */
export type ConfigFileLive = z.infer<typeof liveSection>;

/** Validates the `config` section of the config file at `path` (absent: `undefined`). */
export function readConfigFileLive(path: string, section: unknown): ConfigFileLive | undefined {
  return readConfigFileSection(path, 'config', liveSection, section);
}
