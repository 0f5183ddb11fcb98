import type { UsageCommit } from '../usage/usage-ledger';

/**
 * A ledger row without its charge, as the engine hands it over: a completed, non-streamed request of
 * 10 input and 5 output tokens in 100 ms, changed by `fields` (a request id and time included).
 */
export function sampleUsageEntry(fields: Partial<UsageCommit['entry']> & Pick<UsageCommit['entry'], 'requestId' | 'time'>): UsageCommit['entry'] {
  return {
    protocol: 'openai-responses',
    stream: false,
    status: 200,
    outcome: 'completed',
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite5mTokens: 0,
    cacheWrite1hTokens: 0,
    reasoningTokens: 0,
    estimated: false,
    cacheSavingsMicros: 0,
    latencyMs: 100,
    attempts: 1,
    warnings: [],
    ...fields,
  };
}
