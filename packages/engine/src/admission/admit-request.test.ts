import { GatewayError, type Codec, type GenerationRequest } from '@signalbox/core';
import { createMemoryAccountStore, type UsageCommit } from '@signalbox/accounts';
import { createMemoryLimiter } from '../limits/create-memory-limiter';
import { createProtocolRegistry } from '../protocols/create-protocol-registry';
import { createRouteTable } from '../routing/create-route-table';
import { routeConfigSchema, type RouteConfig } from '../config/gateway-config';
import { computeCostMicros } from '../usage/compute-cost';
import { admitRequest, type AdmissionInput, type PendingCharge } from './admit-request';
import { estimateInputTokens } from './estimate-input-tokens';
import { HOLD_EXPIRY_MARGIN_MS } from './hold-expiry';

const request = (text: string, maxOutputTokens?: number): GenerationRequest => ({
  model: 'm',
  system: [{ type: 'text', text: 'be brief' }],
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  stream: false,
  ...(maxOutputTokens !== undefined && { maxOutputTokens }),
});

async function setup(options: {
  balance: number;
  route?: Record<string, unknown>;
  /** Each target model's own prices, as a route priced from the catalog has them. */
  targetPricing?: RouteConfig['targetPricing'];
  limits?: Record<string, number>;
  ceiling?: Record<string, number>;
  defaultLimits?: Record<string, number>;
}) {
  const store = createMemoryAccountStore();
  const account = await store.createAccount({ name: 'a', balanceMicros: options.balance, ...(options.ceiling && { keyLimitCeiling: options.ceiling }) });
  const { key } = await store.createKey({ accountId: account.id, name: 'k', ...(options.limits && { limits: options.limits }) });
  const route = createRouteTable([
    // Routes here are priced by hand: `pricing: "catalog"` is resolved by parseGatewayConfig.
    {
      ...(routeConfigSchema.parse({ model: 'm', interfaces: ['responses'], targets: [{ upstream: 'u', model: 'x' }], ...options.route }) as RouteConfig),
      ...(options.targetPricing && { targetPricing: options.targetPricing }),
    },
  ], createProtocolRegistry([responsesLikeCodec])).resolve('m', 'openai-responses');
  const input = (text: string, maxOutputTokens?: number): AdmissionInput => ({
    request: request(text, maxOutputTokens),
    route,
    principal: { key, account },
    store,
    limiter: createMemoryLimiter(),
    defaultLimits: options.defaultLimits ?? {},
    signal: new AbortController().signal,
    now: NOW,
  });
  return { store, account, input };
}

const NOW = 1_767_225_600_000;

let committed = 0;
/** The ledger commit of a finished admission: a completed request's row with its hold and cost. */
function commitOf(pending: PendingCharge): UsageCommit {
  return {
    entry: {
      requestId: `req_admission_${++committed}`,
      time: NOW,
      protocol: 'openai-responses',
      stream: false,
      status: 200,
      outcome: 'completed',
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      cacheWrite5mTokens: 0,
      cacheWrite1hTokens: 0,
      reasoningTokens: 0,
      estimated: false,
      cacheSavingsMicros: 0,
      latencyMs: 1,
      attempts: 1,
      warnings: [],
    },
    ...(pending.reservation && { reservation: pending.reservation }),
    costMicros: pending.costMicros,
  };
}

/** Only what routing reads of a codec: its protocol and interface name. */
const responsesLikeCodec = {
  protocol: 'openai-responses',
  descriptor: { interfaceName: 'responses', generationPath: '/v1/responses', modelsPath: '/v1/models', credential: { kind: 'bearer' } },
} as unknown as Codec;

const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => (GatewayError.isInstance(error) ? error.code : error));

describe('estimateInputTokens', () => {
  it('counts ASCII text at 4 UTF-8 bytes a token over system and messages, plus a flat 1 000 per image', () => {
    expect(estimateInputTokens(request('x'.repeat(400)))).toBe(Math.ceil((8 + 400) / 4));
    const withImage: GenerationRequest = {
      ...request('look'),
      messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }] }],
    };
    expect(estimateInputTokens(withImage)).toBe(2 + 1000);
  });

  it.each([
    ['CJK', '你好，世界。今天天气很好，我们去公园散步吧。'],
    ['emoji', '👋🎉🚀🌍✨'.repeat(10)],
    ['Cyrillic', 'Привет, как дела? '.repeat(5)],
    ['mixed', 'Grüße 你好 👋 hello'],
  ])('estimates a %s prompt at least at its UTF-8 byte count / 4 and one token a character', (_script, text) => {
    const bare: GenerationRequest = { ...request(text), system: [] };
    const estimate = estimateInputTokens(bare);
    expect(estimate).toBeGreaterThanOrEqual(Buffer.byteLength(text, 'utf8') / 4);
    expect(estimate).toBeGreaterThanOrEqual([...text].filter(character => character.charCodeAt(0) > 0x7f).length);
  });
});

describe('computeCostMicros', () => {
  it('charges each token its per-million price in micros, cached input at the cached price', () => {
    const usage = { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 400, cacheWriteTokens: undefined, cacheWrite1hTokens: undefined, reasoningTokens: undefined };
    expect(computeCostMicros({ inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 }, usage)).toBe(600 * 3 + 400 * 0.3 + 100 * 15);
    expect(computeCostMicros(undefined, usage)).toBe(0);
  });
});

describe('admitRequest', () => {
  const priced = { pricing: { inputPerMillion: 1, outputPerMillion: 2 }, reserveOutputTokens: 100 };

  it('holds the most the request may cost and hands the hold and the real cost on to be settled with its row', async () => {
    const { store, account, input } = await setup({ balance: 10_000, route: priced });
    const admission = await admitRequest(input('hello there', 50));
    const held = admission.estimatedInputTokens * 1 + 50 * 2;
    expect((await store.getAccount(account.id))?.reservedMicros).toBe(held);
    const pending = await admission.finish({ inputTokens: 10, outputTokens: 20, cacheReadTokens: undefined, cacheWriteTokens: undefined, cacheWrite1hTokens: undefined, reasoningTokens: undefined });
    expect(pending).toEqual({ reservation: expect.objectContaining({ accountId: account.id, amountMicros: held }), costMicros: 10 + 40, cacheSavingsMicros: 0 });
    // Nothing is settled until the ledger commits the request's row with it.
    expect(await store.getAccount(account.id)).toMatchObject({ reservedMicros: held, balanceMicros: 10_000 });
    expect(await store.commitUsage([commitOf(pending)])).toEqual([{ chargedMicros: 50, uncoveredMicros: 0 }]);
    expect(await store.getAccount(account.id)).toMatchObject({ reservedMicros: 0, balanceMicros: 10_000 - 50 });
    expect(await admission.finish(undefined)).toEqual({ reservation: undefined, costMicros: 0, cacheSavingsMicros: 0 }); // idempotent
  });

  it('holds the estimated input at its highest price (a 1-hour cache write) and reports what the cache saved', async () => {
    const cachePriced = { ...priced, pricing: { ...priced.pricing, cachedInputPerMillion: 0.5, cacheWritePerMillion: 1.25, cacheWrite1hPerMillion: 4 } };
    const { store, account, input } = await setup({ balance: 10_000, route: cachePriced });
    const admission = await admitRequest(input('hello there', 50));
    expect((await store.getAccount(account.id))?.reservedMicros).toBe(admission.estimatedInputTokens * 4 + 50 * 2);
    const usage = { inputTokens: 100, outputTokens: 20, cacheReadTokens: 60, cacheWriteTokens: 30, cacheWrite1hTokens: 10, reasoningTokens: undefined };
    // 10 uncached + 60 × 0.5 + 20 × 1.25 + 10 × 4 + 20 × 2 output; without the cache: 100 + 40.
    expect(await admission.finish(usage)).toMatchObject({ costMicros: 10 + 30 + 25 + 40 + 40, cacheSavingsMicros: 140 - 145 });
  });

  it("charges a route priced by target at the prices of the model that served, having held at the highest", async () => {
    const byTarget = { ...priced, pricing: { inputPerMillion: 3, outputPerMillion: 12 } };
    const targetPricing = { 'cheap-1': { inputPerMillion: 1, outputPerMillion: 4 }, 'dear-1': { inputPerMillion: 3, outputPerMillion: 12 } };
    const { store, account, input } = await setup({ balance: 10_000, route: byTarget, targetPricing });
    const usage = { inputTokens: 10, outputTokens: 20, cacheReadTokens: undefined, cacheWriteTokens: undefined, cacheWrite1hTokens: undefined, reasoningTokens: undefined };
    const cheap = await admitRequest(input('hello there', 50));
    expect((await store.getAccount(account.id))?.reservedMicros).toBe(cheap.estimatedInputTokens * 3 + 50 * 12);
    expect(await cheap.finish(usage, 'cheap-1')).toMatchObject({ costMicros: 10 * 1 + 20 * 4 });
    expect(await (await admitRequest(input('hello there', 50))).finish(usage, 'dear-1')).toMatchObject({ costMicros: 10 * 3 + 20 * 12 });
    // A model the route has no prices of (none served: the request failed first) is priced at the highest.
    expect(await (await admitRequest(input('hello there', 50))).finish(usage)).toMatchObject({ costMicros: 10 * 3 + 20 * 12 });
  });

  it('caps the output at the client limit when the balance covers it, else at the route reserve or what the balance affords', async () => {
    const covered = await setup({ balance: 10_000, route: priced });
    expect((await admitRequest(covered.input('hi', 500))).outputTokensCap).toBe(500);
    expect((await admitRequest((await setup({ balance: 10_000, route: priced })).input('hi'))).outputTokensCap).toBe(100);
    // 'be brief' + 'hi' is 10 bytes: 3 input tokens (3 µ); 63 µ left buys 31 output tokens at 2 µ.
    const small = await setup({ balance: 66, route: priced });
    const admission = await admitRequest(small.input('hi', 500));
    expect(admission.outputTokensCap).toBe(31);
    expect(await small.store.getAccount(small.account.id)).toMatchObject({ reservedMicros: 3 + 31 * 2 });
  });

  it('holds the full cap without reading the account again when the account read at authentication covers it', async () => {
    const { store, input } = await setup({ balance: 10_000, route: priced });
    const reads = jest.spyOn(store, 'getAccount');
    expect((await admitRequest(input('hi', 500))).outputTokensCap).toBe(500);
    expect(reads).not.toHaveBeenCalled();
  });

  it('reads the balance afresh when the account read at authentication is out of date either way', async () => {
    // Spent elsewhere since authentication: the full cap no longer fits, the fresh reading gives 31 tokens.
    const spent = await setup({ balance: 10_000, route: priced });
    const stale = spent.input('hi', 500);
    await spent.store.adjustBalance(spent.account.id, -(10_000 - 66));
    expect((await admitRequest(stale)).outputTokensCap).toBe(31);
    // Topped up since authentication: not refused on the old balance, and the full cap is held.
    const topped = await setup({ balance: 10, route: priced });
    const before = topped.input('hi', 500);
    await topped.store.adjustBalance(topped.account.id, 10_000);
    expect((await admitRequest(before)).outputTokensCap).toBe(500);
  });

  it("gives the hold an expiry of the route deadline plus the margin after admission, and the key's id for its budgets", async () => {
    const { store, account, input } = await setup({ balance: 10_000, route: priced });
    const reserve = jest.spyOn(store, 'reserve');
    const admitted = input('hello', 50);
    await admitRequest(admitted);
    expect(reserve).toHaveBeenCalledWith(account.id, expect.any(Number), { expiresAt: NOW + 600_000 + HOLD_EXPIRY_MARGIN_MS, keyId: admitted.principal.key.id });
  });

  it('charges an answer longer than its hold only the hold and reports the rest as uncovered', async () => {
    const { store, account, input } = await setup({ balance: 10_000, route: priced });
    const admission = await admitRequest(input('hi'));
    const held = 3 + 100 * 2;
    const pending = await admission.finish({ inputTokens: 3, outputTokens: 20_000, cacheReadTokens: undefined, cacheWriteTokens: undefined, cacheWrite1hTokens: undefined, reasoningTokens: undefined });
    expect(pending.costMicros).toBe(3 + 40_000);
    expect(await store.commitUsage([commitOf(pending)])).toEqual([{ chargedMicros: held, uncoveredMicros: 3 + 40_000 - held }]);
    expect(await store.getAccount(account.id)).toMatchObject({ reservedMicros: 0, balanceMicros: 10_000 - held });
  });

  it('refuses with INSUFFICIENT_BALANCE and gives the concurrency slot back', async () => {
    const { input } = await setup({ balance: 10, route: priced, limits: { concurrency: 1 } });
    const first = input('hello', 1000);
    expect(await refusal(admitRequest(first))).toBe('INSUFFICIENT_BALANCE');
    // The key's only slot is free again: taking it with no queue succeeds at once.
    const release = await first.limiter.acquire(first.principal.key.id, { concurrency: 1 }, first.signal);
    expect(await refusal(first.limiter.acquire(first.principal.key.id, { concurrency: 1 }, first.signal))).toBe('CONCURRENCY_LIMITED');
    release();
  });

  it('refuses a prompt estimated over the route context with PROMPT_TOO_LARGE', async () => {
    const { input } = await setup({ balance: 0, route: { contextTokens: 10 } });
    expect(await refusal(admitRequest(input('x'.repeat(100))))).toBe('PROMPT_TOO_LARGE');
  });

  it('checks route access before anything is counted', async () => {
    const { input } = await setup({ balance: 0, route: { groups: ['pro'] } });
    expect(await refusal(admitRequest(input('hello')))).toBe('GROUP_NOT_ALLOWED');
  });

  it('runs a key with its account’s keyLimitCeiling where the key’s own limits say nothing, over limits.default', async () => {
    const ceiled = await setup({ balance: 0, ceiling: { requests: 1 }, defaultLimits: { requests: 100 } });
    const once = ceiled.input('hello');
    await admitRequest(once);
    expect(await refusal(admitRequest(once))).toBe('RATE_LIMITED');

    const own = await setup({ balance: 0, ceiling: { requests: 1 }, defaultLimits: { requests: 100 }, limits: { requests: 2 } });
    const twice = own.input('hello');
    await admitRequest(twice);
    await admitRequest(twice);
    expect(await refusal(admitRequest(twice))).toBe('RATE_LIMITED');
  });
});
