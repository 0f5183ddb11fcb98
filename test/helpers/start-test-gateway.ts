import { createMemoryAccountStore, generateAdminToken, generateApiKey } from '@signalbox/accounts';
import {
  codecs,
  createLogger,
  startExampleServer,
  type ExampleServer,
  type ExampleServerOptions,
} from '../../examples/server/src';
import { appendFileSync } from 'node:fs';
import { createLogAudit } from './create-log-audit';
import { createTestClock, type TestClock } from './create-test-clock';

export type { TestClock } from './create-test-clock';

export type TestGateway = ExampleServer & {
  demoKey: string;
  adminToken: string;
  audit: ReturnType<typeof createLogAudit>;
  clock: TestClock;
  /**
   * Every wait between upstream attempts the gateway asked for (retry backoff, an upstream's
   * `Retry-After`), in ms and in order. None is really waited: the clock moves on instead.
   */
  sleeps: number[];
  /** The log lines about one request, once its debug usage line is there (it follows the answer). */
  linesAbout(requestId: string): Promise<string[]>;
};

/**
 * The example server on a free loopback port with in-memory storage, a fresh demo key and console
 * token: the same code `scripts/start.sh` runs. Everything it logs is captured at debug level, and
 * `close()` fails the test file if any key, upstream key (the values of `options.environment`) or
 * prompt the gateway received (any body that reached its socket, refused or not) appears in those
 * logs, whole or in part, or anything shaped like a secret the product issues. With
 * `SIGNALBOX_LOG_AUDIT_REPORT` set to a file path, `close()` appends what the audit checked there
 * as one JSON line (`{"lines","strings","fragments"}`).
 * Time is the test's: waits between upstream attempts are recorded in `sleeps` instead of waited,
 * and `clock.advance` moves the limiter's windows, key expiry and the gateway's timers (deadlines,
 * queue waits), unless `options` brings its own `clock`.
 */
export async function startTestGateway(options: ExampleServerOptions = {}): Promise<TestGateway> {
  const demoKey = options.demoKey ?? generateApiKey();
  const adminToken = generateAdminToken();
  const audit = createLogAudit();
  audit.remember([demoKey, adminToken]);
  // The environment a test gives holds its upstream keys (`apiKeyEnv`): secrets with no shape of their own.
  if (options.environment) audit.remember(Object.values(options.environment));
  const sleeps: number[] = [];
  const clock = createTestClock(sleeps);
  const server = await startExampleServer({
    port: 0,
    host: '127.0.0.1',
    storage: { kind: 'store', store: audit.watchStore(createMemoryAccountStore()), adminToken },
    codecs: audit.watchCodecs(codecs),
    logger: createLogger({ level: 'debug', destination: audit.destination }),
    clock,
    // Usage rows committed at the next turn, so a test reads a request's row right after its answer.
    usageCommitDelayMs: 0,
    ...options,
    demoKey,
  });
  audit.watchServer(server.server);
  const close = server.close;
  return Object.assign(server, {
    demoKey,
    adminToken,
    audit,
    clock,
    sleeps,
    async linesAbout(requestId: string) {
      const about = () => audit.lines().filter(line => line.includes(requestId));
      for (let turn = 0; turn < 200 && !about().some(line => line.includes('"usage"')); turn += 1) await new Promise(resolve => setImmediate(resolve));
      return about();
    },
    async close(graceMs?: number) {
      await close(graceMs);
      const leaks = audit.findLeaks();
      const report = process.env.SIGNALBOX_LOG_AUDIT_REPORT;
      if (report) appendFileSync(report, `${JSON.stringify(audit.counts())}\n`);
      if (leaks.length > 0) throw new Error(`The gateway logged ${leaks.length} secret(s) or prompt(s): ${leaks.map(leak => leak.slice(0, 8)).join(', ')}…`);
    },
  });
}
