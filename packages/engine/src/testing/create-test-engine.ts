import { setImmediate as nextTurn } from 'node:timers/promises';
import { createMemoryAccountStore, type Account, type AccountStore, type NewApiKey } from '@signalbox/accounts';
import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import type { Codec, Protocol, UpstreamKind } from '@signalbox/core';
import type { Clock } from '../clock/clock';
import type { UpstreamClientOptions } from '@signalbox/upstream';
import type { RequestHeaders } from '../auth/authenticate';
import type { GatewayConfigInput } from '../config/gateway-config';
import { parseGatewayConfig } from '../config/parse-gateway-config';
import { createEngine, type Engine } from '../create-engine';
import type { Exchange } from '../exchange/exchange';
import type { EngineObserver } from '../observation/engine-observer';
import type { CredentialHealthStore } from '../upstreams/health-store';
import type { AffinityStore } from '../affinity/affinity-store';
import type { UsageRecord } from '../usage/usage-record';
import { createManualSchedule, type ManualSchedule } from './create-manual-schedule';
import { createScriptedUpstream, type ScriptedAnswer, type ScriptedCall, type ScriptedUpstream } from './create-scripted-upstream';

/** The three real codecs, in the order a host usually lists them. */
export const allCodecs: readonly Codec[] = [openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec];

export type TestUpstream = {
  protocol: Protocol;
  /** The answers of its one credential (an upstream without `credentials`). */
  answers?: readonly ScriptedAnswer[];
  /** A credential variable; the test environment is empty unless `environment` sets it. */
  apiKeyEnv?: string;
  /** Several credentials, each with its own scripted answers (`upstreams.<name>.credentials`). */
  credentials?: readonly (Omit<NonNullable<UpstreamConfigInput['credentials']>[number], 'apiKeyEnv'> & { apiKeyEnv?: string; answers: readonly ScriptedAnswer[] })[];
  /** Extra headers configured for the upstream (`upstreams.<name>.headers`). */
  headers?: Record<string, string>;
  circuitBreaker?: UpstreamConfigInput['circuitBreaker'];
  /** The upstream's kind and its auth settings (`upstreams.<name>.kind`, `.auth`), from `TestEngineOptions.kinds`. */
  kind?: string;
  auth?: Record<string, unknown>;
};

type UpstreamConfigInput = GatewayConfigInput['upstreams'][string];

export type TestEngineOptions = {
  upstreams: Record<string, TestUpstream>;
  routes: GatewayConfigInput['routes'];
  codecs?: readonly Codec[];
  /** The upstream kinds the upstreams may name (`EngineOptions.kinds`). */
  kinds?: readonly UpstreamKind[];
  /** The account's opening balance in micros. Default 1 000 000. */
  balanceMicros?: number;
  /** The key's own settings (limits, allowed models, group). */
  key?: Pick<NewApiKey, 'limits' | 'allowedModels' | 'group'>;
  environment?: NodeJS.ProcessEnv;
  /** The config's `forwardClientHeaders`. */
  forwardClientHeaders?: string[];
  /** Replaces the recording sleep (it still records the delay first); a ledger retry passes no signal. */
  sleep?: Clock['sleep'];
  /** The engine's clock. Default: fixed at `TEST_NOW`. */
  now?: () => number;
  /** Retention of stored responses (`responseStore` in the config). */
  responseStore?: GatewayConfigInput['responseStore'];
  /** Reports a response the store failed to keep. */
  onResponseStoreError?: (error: unknown) => void;
  /** The secret compaction items are sealed under. Default: the engine's random one. */
  conversationSecret?: string;
  /**
   * How long after a request finishes its batch is committed (`EngineOptions.usageCommitDelayMs`).
   * Default 0: the next turn of the event loop, which `recorded` waits for; with a delay, the
   * commit waits for `timers` to be advanced past it.
   */
  usageCommitDelayMs?: number;
  /** Told about failed ledger commits and recorder failures. */
  onRecorderError?: (error: unknown) => void;
  /** Watches exchanges, attempts and ledger batches (`EngineOptions.observer`). */
  observer?: EngineObserver;
  /** Told about an observer method that threw. */
  onObserverError?: (error: unknown) => void;
  /** Shares upstream health with other engines (`EngineOptions.healthStore`). */
  healthStore?: CredentialHealthStore;
  /** The config's `sessionAffinity`. */
  sessionAffinity?: GatewayConfigInput['sessionAffinity'];
  /** Where conversations' credentials are pinned (`EngineOptions.affinityStore`). Default: the engine's memory. */
  affinityStore?: AffinityStore;
  /** Serves the store, account and key of another test engine, as a second instance on one database would. Default: its own. */
  accountsOf?: TestEngine;
};

export type TestEngine = {
  engine: Engine;
  store: AccountStore;
  accountId: string;
  keyId: string;
  /** The test key's secret, as its clients send it. */
  secret: string;
  openingBalanceMicros: number;
  /** Usage records in the order the engine wrote them. */
  records: UsageRecord[];
  /** Every delay the engine waited for between attempts, in ms (the sleep returns at once). */
  sleeps: number[];
  /** Every upstream call, across upstreams, in order. */
  calls: ScriptedCall[];
  /** The engine's timers (request deadlines, the drain's grace, queue waits, delayed ledger commits): they run only when the test advances them. */
  timers: ManualSchedule;
  /** The scripted client of an upstream's credential (`default` for one without `credentials`). */
  upstream(name: string, credential?: string): ScriptedUpstream;
  /** The headers a client of `protocol` authenticates with (the key in its scheme, the version header). */
  headers(protocol: Protocol): RequestHeaders;
  /** Opens an exchange on `protocol`'s interface (its id and arrival the engine's) and authenticates it with the test key (plus any `extraHeaders`). */
  open(protocol: Protocol, extraHeaders?: RequestHeaders): Promise<Exchange>;
  /** Waits until `count` records were written (records are written after the answer), then returns them all. */
  recorded(count?: number): Promise<UsageRecord[]>;
  account(): Promise<Account>;
};

/** The fixed clock of every test engine: 2026-01-01T00:00:00Z. */
export const TEST_NOW = 1_767_225_600_000;

/**
 * An engine with the real codecs, a memory store holding one account and one key, scripted
 * upstreams (no sockets), and a clock of its own: a fixed time, a sleep that records its delay and
 * returns at once, and timers that run only when the test advances them; and a recorder that keeps
 * every usage record.
 */
export async function createTestEngine(options: TestEngineOptions): Promise<TestEngine> {
  const shared = options.accountsOf;
  const store = shared?.store ?? createMemoryAccountStore();
  const openingBalanceMicros = shared?.openingBalanceMicros ?? options.balanceMicros ?? 1_000_000;
  const { accountId, keyId, secret } = shared ?? (await createTestKey(store, openingBalanceMicros, options.key));
  const records: UsageRecord[] = [];
  const sleeps: number[] = [];
  const calls: ScriptedCall[] = [];
  const upstreams = new Map<string, ScriptedUpstream>();
  const timers = createManualSchedule();
  const config = parseGatewayConfig({
    upstreams: Object.fromEntries(
      Object.entries(options.upstreams).map(([name, upstream]) => [
        name,
        {
          protocol: upstream.protocol,
          baseURL: `http://127.0.0.1:9/${name}`,
          ...(upstream.apiKeyEnv !== undefined && { apiKeyEnv: upstream.apiKeyEnv }),
          ...(upstream.credentials && { credentials: upstream.credentials.map(credentialConfigOf) }),
          ...(upstream.headers !== undefined && { headers: upstream.headers }),
          ...(upstream.circuitBreaker && { circuitBreaker: upstream.circuitBreaker }),
          ...(upstream.kind !== undefined && { kind: upstream.kind }),
          ...(upstream.auth !== undefined && { auth: upstream.auth }),
        },
      ]),
    ),
    routes: options.routes,
    ...(options.responseStore && { responseStore: options.responseStore }),
    ...(options.forwardClientHeaders !== undefined && { forwardClientHeaders: options.forwardClientHeaders }),
    ...(options.sessionAffinity && { sessionAffinity: options.sessionAffinity }),
  });
  const engine = createEngine({
    config,
    codecs: options.codecs ?? allCodecs,
    ...(options.kinds && { kinds: options.kinds }),
    store,
    recordUsage: record => void records.push(record),
    environment: { ...credentialKeysOf(options.upstreams), ...options.environment },
    clock: {
      now: options.now ?? (() => TEST_NOW),
      async sleep(ms, signal) {
        sleeps.push(ms);
        await options.sleep?.(ms, signal);
      },
      schedule: timers.schedule,
    },
    ...(options.onResponseStoreError && { onResponseStoreError: options.onResponseStoreError }),
    ...(options.conversationSecret !== undefined && { conversationSecret: options.conversationSecret }),
    usageCommitDelayMs: options.usageCommitDelayMs ?? 0,
    ...(options.onRecorderError && { onRecorderError: options.onRecorderError }),
    ...(options.observer && { observer: options.observer }),
    ...(options.onObserverError && { onObserverError: options.onObserverError }),
    ...(options.healthStore && { healthStore: options.healthStore }),
    ...(options.affinityStore && { affinityStore: options.affinityStore }),
    upstreamClient(name: string, clientOptions: UpstreamClientOptions, credential: string) {
      const configured = options.upstreams[name];
      const answers = configured?.credentials?.find(candidate => candidate.name === credential)?.answers ?? configured?.answers ?? [];
      const upstream = createScriptedUpstream(name, clientOptions, answers, calls, credential);
      upstreams.set(`${name}/${credential}`, upstream);
      return upstream;
    },
  });
  const headers = (protocol: Protocol): RequestHeaders => {
    const { descriptor } = engine.registry.codec(protocol);
    const credential =
      descriptor.credential.kind === 'bearer' ? { authorization: `Bearer ${secret}` } : { [descriptor.credential.header]: secret };
    return { ...credential, ...(descriptor.version && { [descriptor.version.header]: descriptor.version.accepted[0] }) };
  };
  return {
    engine,
    store,
    accountId,
    keyId,
    secret,
    openingBalanceMicros,
    records,
    sleeps,
    calls,
    timers,
    upstream(name, credential = 'default') {
      const upstream = upstreams.get(`${name}/${credential}`);
      if (!upstream) throw new Error(`No upstream '${name}' with a credential '${credential}' in this test engine.`);
      return upstream;
    },
    headers,
    async open(protocol, extraHeaders) {
      const requestHeaders = { ...headers(protocol), ...extraHeaders };
      const exchange = engine.openExchange({ protocol, headers: requestHeaders });
      await exchange.authenticate(requestHeaders);
      return exchange;
    },
    async recorded(count = 1) {
      for (let turn = 0; turn < 100 && records.length < count; turn++) await nextTurn();
      if (records.length < count) throw new Error(`Expected ${count} usage record(s), got ${records.length}.`);
      // One more turn, so a record written twice would show up here.
      await nextTurn();
      return records;
    },
    async account() {
      return (await store.getAccount(accountId))!;
    },
  };
}

/** The test account, with its opening balance, and its one key. */
async function createTestKey(store: AccountStore, balanceMicros: number, key: TestEngineOptions['key']) {
  const account = await store.createAccount({ name: 'test account', balanceMicros });
  const created = await store.createKey({ accountId: account.id, name: 'test key', ...key });
  return { accountId: account.id, keyId: created.key.id, secret: created.secret };
}

type TestCredential = NonNullable<TestUpstream['credentials']>[number];

/** A test credential's config: its answers left out, its key variable named after it unless given. */
function credentialConfigOf({ answers: _answers, ...credential }: TestCredential) {
  return { ...credential, apiKeyEnv: credential.apiKeyEnv ?? keyVariableOf(credential.name) };
}

/** The variable of a test credential that names none: `TEAM_B_KEY` for `team-b`. */
function keyVariableOf(name: string): string {
  return `${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_KEY`;
}

/** A key (`test-key-<name>`) for each test credential that names no variable of its own. */
function credentialKeysOf(upstreams: Record<string, TestUpstream>): NodeJS.ProcessEnv {
  const keys: NodeJS.ProcessEnv = {};
  for (const upstream of Object.values(upstreams)) {
    for (const credential of upstream.credentials ?? []) if (credential.apiKeyEnv === undefined) keys[keyVariableOf(credential.name)] = `test-key-${credential.name}`;
  }
  return keys;
}
