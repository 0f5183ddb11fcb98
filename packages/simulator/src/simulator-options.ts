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
};

/** Options with every default applied. */
export type ResolvedSimulatorOptions = Required<Omit<SimulatorOptions, 'apiKey'>> & { apiKey: string | undefined };

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
  };
  requireAtLeast('tokenDelayMs', resolved.tokenDelayMs, 0);
  requireAtLeast('firstTokenDelayMs', resolved.firstTokenDelayMs, 0);
  requireAtLeast('defaultOutputTokens', resolved.defaultOutputTokens, 50);
  requireAtLeast('reasoningTokens', resolved.reasoningTokens, 1);
  requireAtLeast('maxBodyBytes', resolved.maxBodyBytes, 1);
  return resolved;
}

function requireAtLeast(name: string, value: number, minimum: number): void {
  if (!Number.isFinite(value) || value < minimum) {
    throw new RangeError(`Simulator option ${name} must be a finite number ≥ ${minimum}, got ${value}`);
  }
}
