import { generateConsoleToken } from '@signalbox/accounts';
import { createTestEngine, readFixture } from '../testing';

/** An upstream key with no vendor shape, and one configured as a header of its own. */
const ANTHROPIC_KEY = 'anthropic-credential-without-a-shape';
const HEADER_KEY = 'gemini-style-key-in-a-configured-header';
/** A configured model ID that happens to look like a panel token (43 base64url characters, both cases). */
const TOKEN_LIKE_MODEL = 'Meta-Llama-3-1-405B-Instruct-Turbo-Eval-v2x';

async function engineWithKeys() {
  return createTestEngine({
    upstreams: {
      a: { protocol: 'anthropic-messages', apiKeyEnv: 'A_KEY', answers: [{ body: readFixture('messages-answer.json') }] },
      b: { protocol: 'openai-chat', headers: { 'x-goog-api-key': HEADER_KEY } },
    },
    routes: [
      { model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'a', model: 'a-model' }] },
      { model: TOKEN_LIKE_MODEL, interfaces: ['responses'], targets: [{ upstream: 'b', model: 'b-model' }] },
    ],
    environment: { A_KEY: ANTHROPIC_KEY },
  });
}

describe("the engine's secrets and the usage record", () => {
  it('recognise its upstream keys, from the environment or a configured credential header, besides every shape', async () => {
    const { engine } = await engineWithKeys();
    const token = generateConsoleToken();
    expect(engine.secrets.scrub(`keys ${ANTHROPIC_KEY}, ${HEADER_KEY} and ${token}`)).toBe('keys [redacted], [redacted] and [redacted]');
  });

  it.each([
    ['an upstream key', ANTHROPIC_KEY],
    ['an account console token', generateConsoleToken()],
  ])('store a model no route has that is %s as [redacted], in the record and its ledger row', async (_kind, secret) => {
    const test = await engineWithKeys();
    const exchange = await test.open('openai-responses');
    await expect(exchange.generate({ model: secret, input: 'hi' }, new AbortController().signal)).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    const [record] = await test.recorded(1);
    expect(record).toMatchObject({ status: 404, model: '[redacted]' });
    const { entries } = await test.store.listUsage({ accountId: test.accountId }, { limit: 10 });
    expect(entries.map(entry => entry.model)).toEqual(['[redacted]']);
    expect(JSON.stringify(entries)).not.toContain(secret.slice(-16));
  });

  it('keep the configured model ID of a matched route as it is, whatever it looks like', async () => {
    const test = await engineWithKeys();
    const exchange = await test.open('openai-responses');
    await exchange.generate({ model: TOKEN_LIKE_MODEL, input: 'hi' }, new AbortController().signal).catch(() => undefined);
    const [record] = await test.recorded(1);
    expect(record?.model).toBe(TOKEN_LIKE_MODEL);
    // The same text anywhere else is taken for a token: only the route match keeps it whole.
    expect(test.engine.secrets.scrub(TOKEN_LIKE_MODEL)).toBe('[redacted]');
  });
});
