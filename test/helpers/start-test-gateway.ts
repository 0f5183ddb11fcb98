import { createMemoryAccountStore, generateAdminToken, generateApiKey } from '@switchyard/accounts';
import {
  codecs,
  createLogger,
  startExampleServer,
  type ExampleServer,
  type ExampleServerOptions,
} from '../../examples/server/src';
import { createLogAudit } from './create-log-audit';

export type TestGateway = ExampleServer & { demoKey: string; adminToken: string; audit: ReturnType<typeof createLogAudit> };

/**
 * The example server on a free loopback port with in-memory storage, a fresh demo key and console
 * token: the same code `scripts/start.sh` runs. Everything it logs is captured at debug level, and
 * `close()` fails the test file if any key or prompt the gateway received appears in those logs.
 */
export async function startTestGateway(options: ExampleServerOptions = {}): Promise<TestGateway> {
  const demoKey = options.demoKey ?? generateApiKey();
  const adminToken = generateAdminToken();
  const audit = createLogAudit();
  audit.remember([demoKey, adminToken]);
  const server = await startExampleServer({
    port: 0,
    host: '127.0.0.1',
    storage: { kind: 'store', store: audit.watchStore(createMemoryAccountStore()), adminToken },
    codecs: audit.watchCodecs(codecs),
    logger: createLogger({ level: 'debug', destination: audit.destination }),
    ...options,
    demoKey,
  });
  const close = server.close;
  return Object.assign(server, {
    demoKey,
    adminToken,
    audit,
    async close(graceMs?: number) {
      await close(graceMs);
      const leaks = audit.findLeaks();
      if (leaks.length > 0) throw new Error(`The gateway logged ${leaks.length} secret(s) or prompt(s): ${leaks.map(leak => leak.slice(0, 8)).join(', ')}…`);
    },
  });
}
