import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnvironment, runCli, type AgentSandbox, type CliRun, type EgressTrap } from './agent-sandbox';

/** The Gemini CLI's entry point (`@google/gemini-cli`, pinned in devDependencies, unmodified). */
export const GEMINI_CLI = require.resolve('@google/gemini-cli/bundle/gemini.js');

/** Where a Gemini CLI run is pointed: a Gemini API base URL (no `/v1beta`) and the key it sends as `x-goog-api-key`. */
export type GeminiServer = { baseURL: string; apiKey: string };

/**
 * The user settings of a run: the Gemini API key as the auth method (with only
 * `GOOGLE_GEMINI_BASE_URL` set, the CLI picks a `gateway` auth type that its non-interactive mode
 * refuses as "Invalid auth method selected."), and no usage statistics, telemetry or auto-update.
 */
export const GEMINI_CLI_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
} as const;

/**
 * Node's cache of the CLI's compiled code (`NODE_COMPILE_CACHE`), kept with the checkout's other
 * caches: the CLI is a bundle of tens of megabytes, and compiling it anew took about a fifth of
 * every run's CPU.
 */
const COMPILE_CACHE = join(__dirname, '..', '..', '..', 'node_modules', '.cache', 'signalbox', 'node-compile-cache');

/**
 * Writes the settings into the sandbox's config folder, the CLI's home for `.gemini/` (`GEMINI_CLI_HOME`),
 * and returns what a run adds to the sandbox's `isolatedEnvironment`: the base URL and key, the
 * trust of the working folder, no relaunch into a child process, and Node's compile cache.
 */
export function geminiCliEnvironment(sandbox: AgentSandbox, server: GeminiServer): Record<string, string> {
  const settingsFolder = join(sandbox.config, '.gemini');
  mkdirSync(settingsFolder, { recursive: true });
  writeFileSync(join(settingsFolder, 'settings.json'), JSON.stringify(GEMINI_CLI_SETTINGS));
  return {
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    GEMINI_CLI_HOME: sandbox.config,
    GOOGLE_GEMINI_BASE_URL: server.baseURL,
    GEMINI_API_KEY: server.apiKey,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_CLI_NO_RELAUNCH: 'true',
  };
}

/**
 * One non-interactive run (`-p`, `--output-format stream-json`: one JSON event a line) in the
 * sandbox's working folder, killed after `timeoutMs`.
 */
export function runGeminiCli(sandbox: AgentSandbox, trap: EgressTrap, server: GeminiServer, prompt: string, options: { timeoutMs: number; args?: readonly string[] }): Promise<CliRun> {
  const env = { ...isolatedEnvironment(sandbox, trap), ...geminiCliEnvironment(sandbox, server) };
  return runCli(process.execPath, [GEMINI_CLI, '--output-format', 'stream-json', ...(options.args ?? []), '-p', prompt], { cwd: sandbox.cwd, env, timeoutMs: options.timeoutMs });
}

/** The assistant's last answer: its text deltas after the last tool result. */
export function finalAnswer(run: CliRun): string {
  const lastResult = run.events.findLastIndex(event => event.type === 'tool_result');
  return run.events
    .slice(lastResult + 1)
    .filter(event => event.type === 'message' && event.role === 'assistant')
    .map(event => String(event.content))
    .join('');
}

/** Fails with the CLI's own output unless the run exited 0 with a `result` event of status `success`. */
export function expectSuccessfulRun(run: CliRun): void {
  const result = run.events.find(event => event.type === 'result');
  if (run.code !== 0 || result?.status !== 'success') throw new Error(`Gemini CLI failed (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
}

/**
 * A successful `Use read_file to read notes.txt` run in a folder whose `notes.txt` holds
 * `fileContent`: one `read_file` call that succeeded, then an answer quoting the file.
 */
export function expectReadFileRoundTrip(run: CliRun, fileContent: string): void {
  expectSuccessfulRun(run);
  const toolEvents = run.events.filter(event => event.type === 'tool_use' || event.type === 'tool_result');
  expect(toolEvents).toEqual([
    expect.objectContaining({ type: 'tool_use', tool_name: 'read_file', parameters: { file_path: 'notes.txt' } }),
    expect.objectContaining({ type: 'tool_result', status: 'success' }),
  ]);
  expect(finalAnswer(run).startsWith(`Tool result: ${fileContent.slice(0, 40)}`)).toBe(true);
}
