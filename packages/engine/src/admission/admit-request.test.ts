import { GatewayError, type Codec, type GenerationRequest } from '@switchyard/core';
import { createMemoryAccountStore } from '@switchyard/accounts';
import { createMemoryLimiter } from '../limits/create-memory-limiter';
import { createProtocolRegistry } from '../protocols/create-protocol-registry';
import { createRouteTable } from '../routing/create-route-table';
import { routeConfigSchema } from '../config/gateway-config';
import { computeCostMicros } from '../usage/compute-cost';
import { admitRequest, type AdmissionInput } from './admit-request';
import { estimateInputTokens } from './estimate-input-tokens';

const request = (text: string, maxOutputTokens?: number): GenerationRequest => ({
  model: 'm',
  system: [{ type: 'text', text: 'be brief' }],
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  stream: false,
  ...(maxOutputTokens !== undefined && { maxOutputTokens }),
});

async function setup(options: { balance: number; route?: Record<string, unknown>; limits?: Record<string, number> }) {
  const store = createMemoryAccountStore();
  const account = await store.createAccount({ name: 'a', balanceMicros: options.balance });
  const { key } = await store.createKey({ accountId: account.id, name: 'k', ...(options.limits && { limits: options.limits }) });
  const route = createRouteTable([
    routeConfigSchema.parse({ model: 'm', interfaces: ['responses'], targets: [{ upstream: 'u', model: 'x' }], ...options.route }),
  ], createProtocolRegistry([responsesLikeCodec])).resolve('m', 'openai-responses');
  const input = (text: string, maxOutputTokens?: number): AdmissionInput => ({
    request: request(text, maxOutputTokens),
    route,
    principal: { key, account },
    store,
    limiter: createMemoryLimiter(),
    defaultLimits: {},
    signal: new AbortController().signal,
  });
  return { store, account, input };
}

/** Only what routing reads of a codec: its protocol and interface name. */
const responsesLikeCodec = {
  protocol: 'openai-responses',
  descriptor: { interfaceName: 'responses', generationPath: '/v1/responses', modelsPath: '/v1/models', credential: { kind: 'bearer' } },
} as unknown as Codec;

const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => (GatewayError.isInstance(error) ? error.code : error));

describe('estimateInputTokens', () => {
  it('counts characters / 4 over system and messages, plus a flat 1 000 per image', () => {
    expect(estimateInputTokens(request('x'.repeat(400)))).toBe(Math.ceil((8 + 400) / 4));
    const withImage: GenerationRequest = {
      ...request('look'),
      messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }] }],
    };
    expect(estimateInputTokens(withImage)).toBe(2 + 1000);
  });
});

describe('computeCostMicros', () => {
  it('charges each token its per-million price in micros, cached input at the cached price', () => {
    const usage = { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 400, cacheWriteTokens: undefined, reasoningTokens: undefined };
    expect(computeCostMicros({ inputPerMillion: 3, outputPerMillion: 15, cachedInputPerMillion: 0.3 }, usage)).toBe(600 * 3 + 400 * 0.3 + 100 * 15);
    expect(computeCostMicros(undefined, usage)).toBe(0);
  });
});

describe('admitRequest', () => {
  const priced = { pricing: { inputPerMillion: 1, outputPerMillion: 2 }, reserveOutputTokens: 100 };

  it('holds the most the request may cost and settles at the real cost', async () => {
    const { store, account, input } = await setup({ balance: 10_000, route: priced });
    const admission = await admitRequest(input('hello there', 50));
    expect((await store.getAccount(account.id))?.reservedMicros).toBe(admission.estimatedInputTokens * 1 + 50 * 2);
    const cost = await admission.finish({ inputTokens: 10, outputTokens: 20, cacheReadTokens: undefined, cacheWriteTokens: undefined, reasoningTokens: undefined });
    expect(cost).toBe(10 + 40);
    expect(await store.getAccount(account.id)).toMatchObject({ reservedMicros: 0, balanceMicros: 10_000 - 50 });
    expect(await admission.finish(undefined)).toBe(0); // idempotent
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
});
