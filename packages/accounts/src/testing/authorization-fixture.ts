import { createMemoryConfigVersions } from '../config/create-memory-config-versions';
import type { ConfigEditing } from '../config/create-config-methods';
import type { ConsoleRoute } from '../admin/console-route';
import type { ConsoleCredential, ConsoleUpstreams } from '../admin/console-upstream';
import type { KeyLimits } from '../keys/key-limits';

/** Every admin API route, as `METHOD /path` under the admin router's mount point. */
export const ADMIN_ROUTES = [
  'GET /me',
  'GET /routes',
  'GET /accounts',
  'POST /accounts',
  'GET /accounts/:id',
  'PATCH /accounts/:id',
  'POST /accounts/:id/balance',
  'GET /accounts/:id/balance-events',
  'GET /keys',
  'POST /keys',
  'PATCH /keys/:id',
  'GET /alerts',
  'GET /budgets',
  'POST /budgets',
  'GET /console-tokens',
  'POST /console-tokens',
  'PATCH /console-tokens/:id',
  'GET /audit',
  'GET /audit.csv',
  'GET /usage',
  'GET /usage.csv',
  'GET /usage/summary',
  'GET /upstreams',
  'POST /upstreams/:id/enable',
  'GET /config',
  'POST /config/versions',
  'GET /config/versions',
  'GET /config/versions/:id',
  'GET /config/versions/:id/diff',
  'POST /config/versions/:id/rollback',
] as const;

export type AdminRoute = (typeof ADMIN_ROUTES)[number];
export type AdminCall = { route: AdminRoute; id?: string; body?: Record<string, unknown> };
/** An answer as a test compares it: the status, the body, and a refusal's service code and `param`. */
export type AdminAnswer = { status: number; body: Record<string, unknown>; code?: string; param?: string };
/** Makes one admin call as one identity: through the service, or over HTTP. */
export type AdminCaller = (call: AdminCall) => Promise<AdminAnswer>;

/** The gateway's `limits.default` the cases run with (the example server's). */
export const CASE_DEFAULT_KEY_LIMITS: KeyLimits = { concurrency: 64, queueSize: 256, queueTimeoutMs: 30_000 };

/** The own account's ceiling: every member bounded, so every member's direction is tried. */
export const CASE_CEILING: Required<KeyLimits> = {
  requests: 100,
  tokens: 10_000,
  windowSeconds: 60,
  concurrency: 4,
  queueSize: 2,
  queueTimeoutMs: 5_000,
  quotaTokens: 1_000_000,
  quotaPeriodHours: 24,
};

/** One step beyond `CASE_CEILING` for each member: a larger count, queue or wait, a shorter window or period. */
export const ONE_STEP_MORE: Required<KeyLimits> = {
  requests: 101,
  tokens: 10_001,
  windowSeconds: 59,
  concurrency: 5,
  queueSize: 3,
  queueTimeoutMs: 5_001,
  quotaTokens: 1_000_001,
  quotaPeriodHours: 23,
};

/** One step within `CASE_CEILING` for each member. */
export const ONE_STEP_LESS: Required<KeyLimits> = {
  requests: 99,
  tokens: 9_999,
  windowSeconds: 61,
  concurrency: 3,
  queueSize: 1,
  queueTimeoutMs: 4_999,
  quotaTokens: 999_999,
  quotaPeriodHours: 25,
};

/** Routes open to every group, to the own account's group (`silver`) and to another group (`gold`, two). */
export const CASE_ROUTES: readonly ConsoleRoute[] = [
  caseRoute('open-model', null),
  caseRoute('silver-model', ['silver']),
  caseRoute('gold-model', ['gold']),
  caseRoute('gold-plus-model', ['gold']),
];

/** The upstream whose credential the cases enable: the example server's Messages upstream, a pool of one (`default`). */
export const CASE_UPSTREAM = 'simulator-messages';

const CASE_CREDENTIAL: ConsoleCredential = { name: 'default', state: 'healthy', weight: 1, inFlight: 0 };

/** What the service-level cases read of the gateway's upstreams: `CASE_UPSTREAM` with its one healthy credential. */
export const CASE_UPSTREAMS: ConsoleUpstreams = {
  list: () => [{ name: CASE_UPSTREAM, protocol: 'anthropic-messages', state: 'healthy', inFlight: 0, credentials: [CASE_CREDENTIAL] }],
  enable: (upstream, credential) => (upstream === CASE_UPSTREAM && credential === CASE_CREDENTIAL.name ? CASE_CREDENTIAL : undefined),
};

/** The records each case starts from, made by the admin for that case alone. */
export type AuthorizationFixture = {
  ownAccountId: string;
  otherAccountId: string;
  ownKeyId: string;
  otherKeyId: string;
  /** A key of the own account with its own `concurrency` at the ceiling's 4. */
  limitedKeyId: string;
  /** A key of the own account the operator gave more: group `gold`, only `gold-model`, concurrency 10. */
  grantedKeyId: string;
  accountDisabledKeyId: string;
  operatorDisabledKeyId: string;
  /** The own account's owner token (`alice`). */
  consoleTokenId: string;
  /** The own account's viewer token (`victor`). */
  viewerTokenId: string;
  /** The other account's owner token (`sam`). */
  strangerTokenId: string;
  /** The config document in force (read by the admin), which a config change case sends back. */
  configDocument: Record<string, unknown>;
  /** The own account's owner console token. */
  asAccount: AdminCaller;
  /** The own account's viewer console token. */
  asViewer: AdminCaller;
  /** The other account's owner console token. */
  asStranger: AdminCaller;
};

/**
 * Makes the records of `AuthorizationFixture` through the admin API itself: two accounts (the own
 * one in group `silver` with `CASE_CEILING`, the other in `gold`), their keys, the own account's
 * owner and viewer console tokens and the other's owner token; `callerFor` turns a token's secret into a caller.
 */
export async function createAuthorizationFixture(asAdmin: AdminCaller, callerFor: (secret: string) => Promise<AdminCaller>): Promise<AuthorizationFixture> {
  const made = async (call: AdminCall) => {
    const answer = await asAdmin(call);
    if (answer.status >= 300) throw new Error(`fixture call ${call.route} answered ${answer.status} ${answer.code ?? ''}`);
    return answer.body;
  };
  const own = String((await made({ route: 'POST /accounts', body: { name: 'Own', balance: 5, group: 'silver', keyLimitCeiling: CASE_CEILING } })).id);
  const other = String((await made({ route: 'POST /accounts', body: { name: 'Other', balance: 5, group: 'gold' } })).id);
  const key = async (body: Record<string, unknown>) => String(((await made({ route: 'POST /keys', body })).key as { id: string }).id);
  const ownKeyId = await key({ accountId: own, name: 'own' });
  const otherKeyId = await key({ accountId: other, name: 'theirs' });
  const limitedKeyId = await key({ accountId: own, name: 'limited', limits: { concurrency: 4 } });
  const grantedKeyId = await key({ accountId: own, name: 'granted', group: 'gold', allowedModels: ['gold-model'], limits: { concurrency: 10 } });
  const accountDisabledKeyId = await key({ accountId: own, name: 'paused' });
  const operatorDisabledKeyId = await key({ accountId: own, name: 'stopped' });
  await made({ route: 'PATCH /keys/:id', id: operatorDisabledKeyId, body: { status: 'disabled' } });
  const token = await made({ route: 'POST /console-tokens', body: { accountId: own, name: 'alice' } });
  const viewer = await made({ route: 'POST /console-tokens', body: { accountId: own, name: 'victor', role: 'viewer' } });
  const stranger = await made({ route: 'POST /console-tokens', body: { accountId: other, name: 'sam' } });
  const asAccount = await callerFor(String(token.secret));
  const paused = await asAccount({ route: 'PATCH /keys/:id', id: accountDisabledKeyId, body: { status: 'disabled' } });
  if (paused.status !== 200) throw new Error(`the account could not disable its own key: ${paused.status}`);
  const idOf = (created: Record<string, unknown>) => (created.token as { id: string }).id;
  const configDocument = (await made({ route: 'GET /config' })).document as Record<string, unknown>;
  return {
    ...{ ownAccountId: own, otherAccountId: other, ownKeyId, otherKeyId, limitedKeyId, grantedKeyId, accountDisabledKeyId, operatorDisabledKeyId },
    ...{ consoleTokenId: idOf(token), viewerTokenId: idOf(viewer), strangerTokenId: idOf(stranger), configDocument },
    ...{ asAccount, asViewer: await callerFor(String(viewer.secret)), asStranger: await callerFor(String(stranger.secret)) },
  };
}

/** The config the service-level cases run with: version 1 in memory, every document taken as good. */
export async function createCaseConfig(): Promise<ConfigEditing> {
  const versions = createMemoryConfigVersions();
  const document = { upstreams: { [CASE_UPSTREAM]: { protocol: 'anthropic-messages' } }, routes: [] };
  await versions.appendConfigVersion({ author: 'config-file', document, diff: [] }, 0, 0);
  return { source: 'store', versions, fileDocument: document, check: () => [] };
}

function caseRoute(model: string, groups: string[] | null): ConsoleRoute {
  return {
    model,
    description: null,
    interfaces: [{ name: 'responses', protocol: 'openai-responses', path: '/v1/responses' }],
    pricing: null,
    contextTokens: null,
    upstreamProtocol: 'openai-responses',
    groups,
  };
}
