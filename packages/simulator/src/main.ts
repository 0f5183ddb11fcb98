#!/usr/bin/env node
import { createSimulator } from './create-simulator';
import type { CredentialSettings } from './credential-settings';

/**
 * Standalone simulator: `PORT` (default 4010), `HOST` (default 127.0.0.1), `SIM_TOKEN_DELAY_MS`
 * (default 0), `SIM_FIRST_TOKEN_DELAY_MS` (default 0), `SIM_PROMPT_CACHE` (`off` disables it),
 * `SIM_CACHE_MINIMUM_TOKENS` (default 1024) and `SIM_CREDENTIALS` (a JSON object of settings per key).
 * Prints its URL; stops on SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const simulator = createSimulator({
    tokenDelayMs: readNumber('SIM_TOKEN_DELAY_MS', 0),
    firstTokenDelayMs: readNumber('SIM_FIRST_TOKEN_DELAY_MS', 0),
    promptCache: process.env.SIM_PROMPT_CACHE === 'off' ? false : { minimumTokens: readNumber('SIM_CACHE_MINIMUM_TOKENS', 1024) },
    credentials: readCredentials('SIM_CREDENTIALS'),
  });
  const { url } = await simulator.listen(readNumber('PORT', 4010), process.env.HOST ?? '127.0.0.1');
  process.stdout.write(`signalbox simulator listening on ${url}\n`);
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

function readNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/** `{ "<key>": { "requestsPerMinute": 5 }, … }`; the settings are checked by createSimulator. */
function readCredentials(name: string): Record<string, CredentialSettings> | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${name} must be a JSON object of settings per key`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${name} must be a JSON object of settings per key`);
  return parsed as Record<string, CredentialSettings>;
}

main().catch((error: unknown) => {
  process.stderr.write(`signalbox simulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
