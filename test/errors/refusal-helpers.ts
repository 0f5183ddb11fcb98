import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewAccount, NewApiKey } from '@signalbox/accounts';
import type { GatewayConfigInput } from '@signalbox/engine';
import {
  createDefaultConfig,
  EMBEDDED_SIMULATOR,
  type ExampleServerOptions,
} from '../../examples/server/src';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import type { InterfaceName, StreamEvent } from './interface-clients';

export * from './interface-clients';
export * from './expect-refusal';
export * from './expect-answer';

/** Creates an account and one key on it, directly in the store; returns the key's secret. */
export async function createKey(
  server: TestGateway,
  options: { account?: Partial<NewAccount>; key?: Partial<NewApiKey> } = {},
): Promise<string> {
  const account = await server.store.createAccount({
    name: 'error-tests',
    balanceMicros: 1_000_000_000,
    subscription: 'active',
    ...options.account,
  });
  const { secret } = await server.store.createKey({
    name: 'error-tests',
    ...options.key,
    accountId: account.id,
  });
  return secret;
}

/**
 * Starts the test gateway on a JSON config file: the example server's embedded defaults (simulator
 * routes) changed by `change`. The file is removed once the gateway has read it.
 */
export async function startWithConfig(
  change: (config: GatewayConfigInput) => GatewayConfigInput,
  options: Omit<ExampleServerOptions, 'configPath'> = {},
): Promise<TestGateway> {
  const directory = mkdtempSync(join(tmpdir(), 'signalbox-error-tests-'));
  const configPath = join(directory, 'gateway.json');
  writeFileSync(configPath, JSON.stringify(change(createDefaultConfig(EMBEDDED_SIMULATOR))));
  try {
    return await startTestGateway({ ...options, configPath });
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** An event's type, or for Chat chunks `finish:<reason>` / `chunk`. */
export function eventName(event: StreamEvent): string {
  const finish = event.choices?.[0]?.finish_reason;
  return event.type ?? (finish ? `finish:${finish}` : 'chunk');
}

/** Reads a stream to its end and returns the event types (or Chat finish reasons) it carried. */
export async function drain(events: AsyncIterable<StreamEvent>): Promise<string[]> {
  const seen: string[] = [];
  for await (const event of events) seen.push(eventName(event));
  return seen;
}

/** The terminal marker of a successful stream on each interface. */
export const COMPLETED_EVENT: Record<InterfaceName, string> = {
  responses: 'response.completed',
  messages: 'message_stop',
  chat: 'finish:stop',
};
