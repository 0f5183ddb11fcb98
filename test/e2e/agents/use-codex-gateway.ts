import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GatewayConfigInput } from '@signalbox/engine';
import { startTestGateway, type TestGateway } from '../../helpers/start-test-gateway';
import { createAgentSandbox, isolatedEnvironment, logGatewayRequests, runCli, startEgressTrap, type AgentSandbox, type EgressTrap } from './agent-sandbox';
import { CODEX } from './codex-cli';

/** What one `codex exec` run left: its events, the gateway's HTTP requests and upgrades, the simulator's requests and the ledger rows. */
export type CodexRun = {
  run: Awaited<ReturnType<typeof runCli>>;
  /** Requests the gateway's server received over HTTP (upgrades not included). */
  gateway: ReturnType<typeof logGatewayRequests>['requests'];
  /** Paths of the WebSocket upgrades the gateway's server received. */
  upgrades: string[];
  upstream: ReturnType<TestGateway['simulator']['requests']>;
  rows: ReturnType<TestGateway['recentUsage']>;
};

export type CodexGateway = {
  readonly server: TestGateway;
  /** The sandbox's working folder, where Codex runs its commands. */
  readonly cwd: string;
  /** The sandbox and egress trap, for another CLI run in the same setting. */
  readonly sandbox: AgentSandbox;
  readonly trap: EgressTrap;
  /** Runs `codex exec --json` once (with a prompt, or the arguments after `exec` that end with one) with `config` as its config.toml, in the sandbox, offline. */
  codex(prompt: string | readonly string[], config: string, apiKey?: string): Promise<CodexRun>;
};

/**
 * The example server with `gatewayConfig` as its config file, an egress trap and a sandbox whose
 * working folder holds `notes.txt` with `fileContent`, set up before the file's tests and taken down
 * after them; after each test, no attempt of the CLI's may have left loopback.
 */
export function useCodexGateway(options: { prefix: string; gatewayConfig: GatewayConfigInput; fileContent: string; runTimeoutMs: number }): CodexGateway {
  let server: TestGateway;
  let trap: EgressTrap;
  let sandbox: AgentSandbox;
  beforeAll(async () => {
    sandbox = createAgentSandbox(options.prefix);
    const configPath = join(sandbox.root, 'gateway.json');
    writeFileSync(configPath, JSON.stringify(options.gatewayConfig));
    server = await startTestGateway({ configPath });
    trap = await startEgressTrap();
    writeFileSync(join(sandbox.cwd, 'notes.txt'), `${options.fileContent}\n`);
  });
  afterAll(async () => {
    await trap.close();
    await server.close(1_000);
    sandbox.remove();
  });
  // Nothing left loopback: every attempt the CLI made to reach another host is listed here.
  afterEach(() => expect(trap.attempts.splice(0)).toEqual([]));
  return {
    get server() {
      return server;
    },
    get cwd() {
      return sandbox.cwd;
    },
    get sandbox() {
      return sandbox;
    },
    get trap() {
      return trap;
    },
    async codex(prompt, config, apiKey = server.demoKey) {
      writeFileSync(join(sandbox.config, 'config.toml'), config);
      const log = logGatewayRequests(server.server);
      const upgrades: string[] = [];
      const onUpgrade = (request: { url?: string }) => upgrades.push(request.url ?? '');
      server.server.prependListener('upgrade', onUpgrade);
      const upstreamBefore = server.simulator.requests().length;
      const rowsBefore = server.recentUsage().length;
      const run = await runCli(process.execPath, [CODEX, 'exec', '--json', '--skip-git-repo-check', ...(typeof prompt === 'string' ? [prompt] : prompt)], {
        cwd: sandbox.cwd,
        timeoutMs: options.runTimeoutMs,
        env: { ...isolatedEnvironment(sandbox, trap), CODEX_HOME: sandbox.config, SIGNALBOX_API_KEY: apiKey },
      });
      log.stop();
      server.server.off('upgrade', onUpgrade);
      return { run, gateway: log.requests, upgrades, upstream: server.simulator.requests().slice(upstreamBefore), rows: server.recentUsage().slice(rowsBefore) };
    },
  };
}
