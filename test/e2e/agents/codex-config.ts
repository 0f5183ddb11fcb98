// The Codex CLI's config for a run against the gateway, in a file of its own (no jest, no
// `require`) so that scripts run by Node, such as scripts/bench/measure-cache-affinity.mjs, share it.

export interface CodexConfigOptions {
  model: string;
  /** The gateway's (or a proxy's) base URL, without `/v1`. */
  baseURL: string;
  /** The provider's display name; Codex compacts remotely only for one named "OpenAI". */
  providerName?: string;
  /** Extra lines of the provider block. */
  providerLines?: readonly string[];
  /** Extra lines of the `[features]` table. */
  featureLines?: readonly string[];
}

/**
 * The provider block the README documents, plus what keeps Codex offline: no update check, no
 * analytics, and no plugin/app sync (which fetches a curated plugin list from api.github.com and
 * chatgpt.com at start-up).
 */
export function codexConfig(options: CodexConfigOptions): string {
  return [
    `model = "${options.model}"`,
    'model_provider = "signalbox"',
    'check_for_update_on_startup = false',
    '',
    '[analytics]',
    'enabled = false',
    '',
    '[features]',
    'plugins = false',
    'remote_plugin = false',
    'apps = false',
    ...(options.featureLines ?? []),
    '',
    '[model_providers.signalbox]',
    `name = "${options.providerName ?? 'Signalbox'}"`,
    `base_url = "${options.baseURL}/v1"`,
    'env_key = "SIGNALBOX_API_KEY"',
    'wire_api = "responses"',
    ...(options.providerLines ?? []),
    '',
  ].join('\n');
}
