import { generateApiKey } from '@switchyard/engine';
import { startExampleServer, type ExampleServer, type ExampleServerOptions } from '../../examples/server/src';

/**
 * The example server on a free loopback port with a fresh demo key and no logging: the same code
 * `scripts/start.sh` runs, so end-to-end tests exercise exactly what users start.
 */
export async function startTestGateway(options: ExampleServerOptions = {}): Promise<ExampleServer> {
  return startExampleServer({ port: 0, host: '127.0.0.1', demoKey: generateApiKey(), ...options });
}
