#!/usr/bin/env node
import { createSimulator } from './create-simulator';

/**
 * Standalone simulator: `PORT` (default 4010), `HOST` (default 127.0.0.1), `SIM_TOKEN_DELAY_MS`
 * (default 0) and `SIM_FIRST_TOKEN_DELAY_MS` (default 0). Prints its URL; stops on SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const simulator = createSimulator({
    tokenDelayMs: readNumber('SIM_TOKEN_DELAY_MS', 0),
    firstTokenDelayMs: readNumber('SIM_FIRST_TOKEN_DELAY_MS', 0),
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

main().catch((error: unknown) => {
  process.stderr.write(`signalbox simulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
