import { dirname, join } from 'node:path';
import type { AgentSandbox } from './agent-sandbox';

/**
 * The Claude Code CLI's native binary (`@anthropic-ai/claude-code`, pinned in devDependencies,
 * unmodified), found with the caller's `resolve` (`require.resolve`, or `createRequire`'s in ESM).
 */
export function claudeCodeBinary(resolve: (id: string) => string): string {
  return join(dirname(resolve('@anthropic-ai/claude-code/package.json')), 'bin', 'claude.exe');
}

/**
 * What a Claude Code run against `baseURL` with `apiKey` adds to the sandbox's `isolatedEnvironment`:
 * its config in the sandbox, and the documented switches that turn off auto-update, telemetry,
 * error reports and other non-essential traffic. Only type imports, so Node scripts can load it.
 */
export function claudeCodeEnvironment(sandbox: AgentSandbox, server: { baseURL: string; apiKey: string }): Record<string, string> {
  return {
    CLAUDE_CONFIG_DIR: sandbox.config,
    ANTHROPIC_BASE_URL: server.baseURL,
    ANTHROPIC_API_KEY: server.apiKey,
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}
