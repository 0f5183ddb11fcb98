import { GatewayError, openKeyCredential, type UpstreamKind } from '@signalbox/core';
import { createTestEngine, type ScriptedAnswer } from '../testing';

/** A toy cloud that counts tokens at its own path, its count in `tokens` of its answer. */
const countingKind: UpstreamKind = {
  name: 'counting-cloud',
  protocols: ['anthropic-messages'],
  checkAuth: () => [],
  open: opening => ({
    countTokens: { path: model => `/model/${model}/count`, body: (body, model) => ({ wrapped: body, for: model }), countField: 'tokens' },
    openCredential: source => openKeyCredential(source, opening.environment, { kind: 'header', header: 'x-toy-key' }),
  }),
};

const counting = { model: 'client-model', system: 'Be brief', messages: [{ role: 'user', content: 'How many tokens are these?' }] };
const ESTIMATE = Math.ceil(('Be brief'.length + 'How many tokens are these?'.length) / 4);
const permissionError = JSON.stringify({ type: 'error', error: { type: 'permission_error', message: 'Not allowed.' } });

async function countWith(answers: readonly ScriptedAnswer[], kind?: string) {
  const test = await createTestEngine({
    kinds: [countingKind],
    upstreams: { cloud: { protocol: 'anthropic-messages', ...(kind !== undefined && { kind }), answers } },
    routes: [{ model: 'client-model', interfaces: ['messages'], targets: [{ upstream: 'cloud', model: 'cloud-model' }] }],
  });
  const exchange = await test.open('anthropic-messages');
  const codec = test.engine.registry.codec('anthropic-messages');
  const answer = test.engine.countTokens(exchange.principal!, codec, counting).catch((error: unknown) => error);
  return { test, answer: await answer };
}

describe('countTokens', () => {
  it("answers the count of the route's cloud, asked at the kind's path with the upstream's model, unmarked", async () => {
    const { test, answer } = await countWith([{ body: '{"tokens":42}' }], 'counting-cloud');
    expect(answer).toEqual({ body: { input_tokens: 42 }, headers: {} });
    expect(test.calls.map(call => [call.path, call.body])).toEqual([['/model/cloud-model/count', { wrapped: { ...counting, model: 'cloud-model' }, for: 'cloud-model' }]]);
  });

  it.each<[string, ScriptedAnswer]>([
    ['a refusal of the model', { status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'Cannot count.' } }) }],
    ['a throttle', { status: 429, body: JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Slow down.' } }) }],
    ['an answer without a count', { body: '{"tokens":-1}' }],
    ['a connection failure', { sendError: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }],
  ])('falls back to the estimate, marked in x-signalbox-warnings, after %s', async (_case, scripted) => {
    const { test, answer } = await countWith([scripted], 'counting-cloud');
    expect(answer).toEqual({ body: { input_tokens: ESTIMATE }, headers: { 'x-signalbox-warnings': 'input_tokens (estimate)' } });
    expect(test.calls).toHaveLength(1);
  });

  it('throws UPSTREAM_AUTH_FAILED when the cloud refuses the credential, and leaves the credential in service', async () => {
    const { test, answer } = await countWith([{ status: 403, body: permissionError }], 'counting-cloud');
    expect(GatewayError.isInstance(answer) && answer.code).toBe('UPSTREAM_AUTH_FAILED');
    expect(test.engine.upstreamHealth()[0]!.credentials[0]).toMatchObject({ state: 'healthy' });
  });

  it('estimates, marked, without calling an upstream whose kind does not count', async () => {
    const { test, answer } = await countWith([]);
    expect(answer).toEqual({ body: { input_tokens: ESTIMATE }, headers: { 'x-signalbox-warnings': 'input_tokens (estimate)' } });
    expect(test.calls).toEqual([]);
  });
});
