import type { CliRun } from './agent-sandbox';

export { codexConfig, type CodexConfigOptions } from './codex-config';

/** The Codex CLI's entry point (`@openai/codex`, pinned in devDependencies, unmodified). */
export const CODEX = require.resolve('@openai/codex/bin/codex.js');

/** The example server's default routes that serve the Responses interface, with the upstream path each reaches. */
export const CODEX_ROUTES = [
  { model: 'signalbox-sim', upstreamPath: '/v1/messages' },
  { model: 'sim-via-responses', upstreamPath: '/v1/responses' },
  { model: 'sim-via-messages', upstreamPath: '/v1/messages' },
  { model: 'sim-via-chat', upstreamPath: '/v1/chat/completions' },
  { model: 'sim-responses-only', upstreamPath: '/v1/responses' },
] as const;

/** The completed items of one type from a `codex exec --json` run's events. */
export function completedItems(run: CliRun, type: string): Array<Record<string, unknown>> {
  return run.events
    .filter(event => event.type === 'item.completed')
    .map(event => event.item as Record<string, unknown>)
    .filter(item => item.type === type);
}

/** Fails with Codex's own output unless the run exited 0 with a started and completed turn and no error event. */
export function expectCompletedTurn(run: CliRun): void {
  const failure = run.events.find(event => event.type === 'turn.failed' || event.type === 'error');
  if (failure !== undefined || run.code !== 0) throw new Error(`Codex failed (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  expect(run.events.map(event => event.type)).toEqual(expect.arrayContaining(['thread.started', 'turn.started', 'turn.completed']));
}
