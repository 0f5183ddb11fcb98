import { readCredentialSettings, type CredentialSettings } from './credential-settings';

/** How the simulator's prompt cache behaves. Every field is optional. */
export type PromptCacheOptions = {
  /**
   * The shortest prefix, in tokens, that is cached: a Messages breakpoint's prefix, an OpenAI prompt.
   * Default `1024`, what both vendors document for most models; tests lower it to keep prompts short.
   */
  minimumTokens?: number;
  /** Cached prefixes kept per credential, the least recently used going first. Default `10000`. */
  maxEntriesPerCredential?: number;
  /** Credentials with a cache, the least recently used going first. Default `100`. */
  maxCredentials?: number;
};

/** How a simulator paces, sizes and guards its answers. Every field is optional. */
export type SimulatorOptions = {
  /** Pause between streamed tokens in milliseconds. Default `0`: write as fast as the socket takes it (no timers). */
  tokenDelayMs?: number;
  /** Extra pause before the first streamed token (time to first token) in milliseconds. Default `0`. */
  firstTokenDelayMs?: number;
  /** Length of an answer in tokens (one token = one word) when nothing limits it. Default `64`; must be ≥ 50. */
  defaultOutputTokens?: number;
  /** Length of the reasoning/thinking text in tokens when a request asks for reasoning. Default `16`. */
  reasoningTokens?: number;
  /**
   * When set, requests must carry this key (`Authorization: Bearer` on the OpenAI paths, `x-api-key` on
   * `/v1/messages`) or get 401 in the path's envelope. Default `undefined`: any key, or none, is accepted.
   */
  apiKey?: string;
  /** Honour `[[sim:…]]` scenario markers in the last user text. Default `true`. */
  scenarioDirectives?: boolean;
  /** Largest accepted request body in bytes; larger bodies get 413. Default `33554432` (32 MiB). */
  maxBodyBytes?: number;
  /** Prompt caching per credential, as the vendors report it; `false` reports no cache activity. Default: on. */
  promptCache?: PromptCacheOptions | false;
  /** Settings per key (rate limit, revocation), keyed by the key requests carry. Change them later with `configureCredential`. */
  credentials?: Readonly<Record<string, CredentialSettings>>;
  /** The clock of prompt-cache lifetimes and rate limits, in epoch milliseconds. Default `Date.now`; tests move it instead of waiting. */
  now?: () => number;
};

/** Prompt-cache options with every default applied; `enabled` is false when the option was `false`. */
export type ResolvedPromptCacheOptions = Required<PromptCacheOptions> & { enabled: boolean };

/** Options with every default applied. */
export type ResolvedSimulatorOptions = Required<Omit<SimulatorOptions, 'apiKey' | 'promptCache'>> & {
  apiKey: string | undefined;
  promptCache: ResolvedPromptCacheOptions;
};

/** Applies defaults and rejects values the simulator cannot honour (RangeError). */
export function resolveSimulatorOptions(options: SimulatorOptions = {}): ResolvedSimulatorOptions {
  const resolved: ResolvedSimulatorOptions = {
    tokenDelayMs: options.tokenDelayMs ?? 0,
    firstTokenDelayMs: options.firstTokenDelayMs ?? 0,
    defaultOutputTokens: options.defaultOutputTokens ?? 64,
    reasoningTokens: options.reasoningTokens ?? 16,
    apiKey: options.apiKey,
    scenarioDirectives: options.scenarioDirectives ?? true,
    maxBodyBytes: options.maxBodyBytes ?? 32 * 1024 * 1024,
    promptCache: resolvePromptCache(options.promptCache),
    credentials: resolveCredentials(options.credentials),
    now: options.now ?? Date.now,
  };
  requireAtLeast('tokenDelayMs', resolved.tokenDelayMs, 0);
  requireAtLeast('firstTokenDelayMs', resolved.firstTokenDelayMs, 0);
  requireAtLeast('defaultOutputTokens', resolved.defaultOutputTokens, 50);
  requireAtLeast('reasoningTokens', resolved.reasoningTokens, 1);
  requireAtLeast('maxBodyBytes', resolved.maxBodyBytes, 1);
  requireAtLeast('promptCache.minimumTokens', resolved.promptCache.minimumTokens, 1);
  requireAtLeast('promptCache.maxEntriesPerCredential', resolved.promptCache.maxEntriesPerCredential, 1);
  requireAtLeast('promptCache.maxCredentials', resolved.promptCache.maxCredentials, 1);
  return resolved;
}

function resolvePromptCache(options: PromptCacheOptions | false | undefined): ResolvedPromptCacheOptions {
  const given = options === false ? {} : (options ?? {});
  return {
    enabled: options !== false,
    minimumTokens: given.minimumTokens ?? 1024,
    maxEntriesPerCredential: given.maxEntriesPerCredential ?? 10_000,
    maxCredentials: given.maxCredentials ?? 100,
  };
}

function resolveCredentials(credentials: Readonly<Record<string, CredentialSettings>> = {}): Record<string, CredentialSettings> {
  const resolved: Record<string, CredentialSettings> = {};
  for (const [key, settings] of Object.entries(credentials)) {
    const checked = readCredentialSettings(settings);
    if (typeof checked === 'string') throw new RangeError(`Simulator option credentials: ${checked}`);
    resolved[key] = checked;
  }
  return resolved;
}

function requireAtLeast(name: string, value: number, minimum: number): void {
  if (!Number.isFinite(value) || value < minimum) {
    throw new RangeError(`Simulator option ${name} must be a finite number ≥ ${minimum}, got ${value}`);
  }
}
