import { ADMIN_IDENTITY, type Account, type ApiKeyRecord, type KeyLimits } from '@signalbox/accounts';
import { CASE_DEFAULT_KEY_LIMITS, CASE_ROUTES } from '@signalbox/accounts/testing';
import fc from 'fast-check';
import request from 'supertest';
import { startAuthorizationGateway } from '../helpers/start-authorization-gateway';
import type { TestGateway } from '../helpers/start-test-gateway';
import { ceilingArbitrary, keyChange } from './account-key-arbitraries';
import { createFuzzTally } from './create-fuzz-tally';
import { fuzzRuns } from './fuzz-runs';

const RUNS = fuzzRuns({ sequences: 150 });
// 150 sequences of admin calls and requests: 18 s alone, more beside lint and the type-check on 2 cores.
jest.setTimeout(60_000);

/** The statuses an account's key change may get, and the service code of each (a refusal's names the field). */
const ANSWER_CODES: Readonly<Record<number, string | undefined>> = { 200: undefined, 201: undefined, 400: 'INVALID_REQUEST', 403: 'ADMIN_TOKEN_REQUIRED' };

/** What the operator gave one key beyond its account: a group, its models and a concurrency. */
type Grant = { group: string; models: readonly string[]; concurrency: number };
const GRANT: Grant = { group: 'gold', models: ['gold-model'], concurrency: 100 };

/** The case routes' models a key of `group` with `allowedModels` may call: the gateway's two route checks, written out. */
function modelsFor(group: string | undefined, allowedModels?: readonly string[]): string[] {
  return CASE_ROUTES.filter(route => route.groups === null || (group !== undefined && route.groups.includes(group)))
    .filter(route => allowedModels === undefined || allowedModels.includes(route.model))
    .map(route => route.model);
}

/**
 * Where a key can do more than its account may (or than the operator granted it): its group, the
 * models it may call, and each limit member in the direction that gives more, against the
 * account's ceiling (`limits.default` overlaid by its own). An independent reading of the rules.
 */
function excessOf(key: ApiKeyRecord, account: Account, grant: Grant | undefined): string[] {
  const excess: string[] = [];
  if (key.group !== undefined && key.group !== grant?.group) excess.push(`group ${key.group}`);
  const allowed = new Set([...modelsFor(account.group), ...(grant?.models ?? [])]);
  excess.push(...modelsFor(key.group ?? account.group, key.allowedModels).filter(model => !allowed.has(model)).map(model => `model ${model}`));
  const bound: KeyLimits = { ...CASE_DEFAULT_KEY_LIMITS, ...account.keyLimitCeiling };
  if (grant && (bound.concurrency ?? Infinity) < grant.concurrency) bound.concurrency = grant.concurrency;
  const limits: KeyLimits = { ...CASE_DEFAULT_KEY_LIMITS, ...account.keyLimitCeiling, ...key.limits };
  const at = (value: number | undefined, implied: number) => value ?? implied;
  for (const member of ['requests', 'tokens', 'concurrency', 'quotaTokens'] as const) {
    if (bound[member] !== undefined && at(limits[member], Infinity) > bound[member]) excess.push(`${member} ${limits[member]}`);
  }
  const rate = bound.requests !== undefined || bound.tokens !== undefined;
  if (rate && at(limits.windowSeconds, 60) < at(bound.windowSeconds, 60)) excess.push(`windowSeconds ${limits.windowSeconds}`);
  if (bound.concurrency !== undefined && at(limits.queueSize, 0) > at(bound.queueSize, 0)) excess.push(`queueSize ${limits.queueSize}`);
  if (bound.concurrency !== undefined && at(limits.queueTimeoutMs, 30_000) > at(bound.queueTimeoutMs, 30_000)) excess.push(`queueTimeoutMs ${limits.queueTimeoutMs}`);
  if (bound.quotaTokens !== undefined && at(limits.quotaPeriodHours, 720) < at(bound.quotaPeriodHours, 720)) excess.push(`quotaPeriodHours ${limits.quotaPeriodHours}`);
  return excess;
}

describe('fuzz: an account console token never gives a key more than its account may', () => {
  let server: TestGateway;
  const tally = createFuzzTally('account key changes');
  beforeAll(async () => {
    server = await startAuthorizationGateway();
  });
  afterAll(async () => {
    console.log(tally.summary());
    await server.close(1_000);
    expect(tally.cases).toBe(RUNS.sequences);
    expect(tally.over500).toBe(0);
  });

  /** An account in group `silver` with the given ceiling, a key the operator disabled, one it granted more, and a console token. */
  const setUp = async (ceiling: KeyLimits | undefined) => {
    const account = await server.admin.createAccount(ADMIN_IDENTITY, { name: 'fuzz', balance: 5, group: 'silver', ...(ceiling && { keyLimitCeiling: ceiling }) });
    const stopped = await server.admin.createKey(ADMIN_IDENTITY, { accountId: account.id, name: 'stopped' });
    await server.admin.updateKey(ADMIN_IDENTITY, stopped.key.id, { status: 'disabled' });
    const granted = await server.admin.createKey(ADMIN_IDENTITY, { accountId: account.id, name: 'granted', group: GRANT.group, allowedModels: GRANT.models, limits: { concurrency: GRANT.concurrency } });
    const { secret: token } = await server.admin.createConsoleToken(ADMIN_IDENTITY, { accountId: account.id, name: 'fuzz' });
    return { accountId: account.id, token, stoppedId: stopped.key.id, granted, secrets: [granted.secret] };
  };

  it('over random sequences of key creations and changes', async () => {
    await fc.assert(
      fc.asyncProperty(ceilingArbitrary, fc.array(keyChange, { minLength: 1, maxLength: 8 }), async (ceiling, changes) => {
        tally.countCase();
        const run = await setUp(ceiling);
        const ids = [run.stoppedId, run.granted.key.id];
        for (const change of changes) {
          const sent = change.kind === 'create'
            ? request(server.url).post('/admin/keys').send(change.body)
            : request(server.url).patch(`/admin/keys/${ids[change.index % ids.length]}`).send(change.body);
          const answer = await sent.set({ authorization: `Bearer ${run.token}` });
          tally.see(answer);
          expect(Object.keys(ANSWER_CODES)).toContain(String(answer.status));
          expect(answer.body.code).toBe(ANSWER_CODES[answer.status]);
          if (answer.status === 201) {
            ids.push(answer.body.key.id);
            run.secrets.push(answer.body.secret);
          }
        }
        const account = (await server.store.getAccount(run.accountId))!;
        for (const key of await server.store.listKeys(run.accountId)) {
          expect([key.name, excessOf(key, account, key.id === run.granted.key.id ? GRANT : undefined)]).toEqual([key.name, []]);
        }
        expect((await server.store.getKey(run.stoppedId))?.status).toBe('disabled');
        for (const secret of run.secrets) {
          const call = await request(server.url).post('/v1/chat/completions').set({ authorization: `Bearer ${secret}` }).send({ model: 'gold-plus-model', messages: [{ role: 'user', content: 'hi' }] });
          expect([401, 403]).toContain(call.status);
        }
      }),
      { numRuns: RUNS.sequences },
    );
  });
});
