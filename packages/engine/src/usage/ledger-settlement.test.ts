import { createTestEngine, readFixture, TEST_NOW } from '../testing';
import { USAGE_COMMIT_DELAY_MS } from './create-usage-writer';

const pricing = { inputPerMillion: 1, outputPerMillion: 2 };
const answer = readFixture('messages-answer.json'); // 21 input and 7 output tokens: 21 + 14 = 35 µ
const bodies = {
  'openai-responses': { model: 'client-model', input: 'Say hello', temperature: 1.7 },
  'openai-chat': { model: 'client-model', messages: [{ role: 'user', content: 'Say hello' }], temperature: 1.7 },
} as const;

/**
 * A priced route on a Messages upstream answering `answers` JSON answers; batches are committed the
 * production delay after their first request, on the test's timers: `scheduled` lists the delays
 * of the timers waiting (once every request settled, only a commit's), and `runScheduled` moves
 * the timers on past a commit.
 */
async function ledgerEngine(answers = 1) {
  const test = await createTestEngine({
    upstreams: { a: { protocol: 'anthropic-messages', answers: Array.from({ length: answers }, () => ({ body: answer })) } },
    routes: [{ model: 'client-model', interfaces: ['responses', 'chat'], targets: [{ upstream: 'a', model: 'claude-upstream' }], pricing }],
    usageCommitDelayMs: USAGE_COMMIT_DELAY_MS,
  });
  const scheduled = () => test.timers.waiting();
  const runScheduled = () => test.timers.advance(USAGE_COMMIT_DELAY_MS);
  return { test, scheduled, runScheduled };
}

async function generate(test: Awaited<ReturnType<typeof ledgerEngine>>['test'], protocol: keyof typeof bodies = 'openai-responses') {
  const exchange = await test.open(protocol);
  const output = await exchange.generate(bodies[protocol], new AbortController().signal);
  return { exchange, output };
}

describe('the usage ledger behind the engine', () => {
  it('answers before the charge and the row are written, then commits both together on the writer’s turn', async () => {
    const { test, scheduled, runScheduled } = await ledgerEngine();
    const { exchange, output } = await generate(test);
    expect(output.kind).toBe('json');
    await new Promise(resolve => setImmediate(resolve));
    // The answer is out; the hold still stands and nothing is in the ledger yet.
    expect(scheduled()).toEqual([USAGE_COMMIT_DELAY_MS]);
    expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros });
    expect((await test.account()).reservedMicros).toBeGreaterThan(0);
    expect((await test.store.listUsage({}, { limit: 5 })).entries).toEqual([]);
    expect(test.records).toEqual([]);

    runScheduled();
    const [record] = await test.recorded();
    expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros - 35, reservedMicros: 0 });
    const { entries } = await test.store.listUsage({ accountId: test.accountId }, { limit: 5 });
    expect(entries).toEqual([
      {
        requestId: exchange.requestId,
        time: TEST_NOW,
        accountId: test.accountId,
        keyId: test.keyId,
        keyPrefix: (await test.store.getKey(test.keyId))!.prefix,
        model: 'client-model',
        upstream: 'a',
        upstreamCredential: 'default',
        upstreamModel: 'claude-upstream',
        protocol: 'openai-responses',
        upstreamProtocol: 'anthropic-messages',
        stream: false,
        status: 200,
        outcome: 'completed',
        finishReason: 'stop',
        inputTokens: 21,
        outputTokens: 7,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        reasoningTokens: 0,
        estimated: false,
        costMicros: 35,
        uncoveredMicros: 0,
        cacheSavingsMicros: 0,
        latencyMs: 0,
        timeToFirstByteMs: 0,
        attempts: 1,
        warnings: ['temperature (lossy-conversion)'],
      },
    ]);
    // The host's record carries the charge the store decided, and the new fields.
    expect(record).toMatchObject({
      requestId: exchange.requestId,
      costMicros: 35,
      uncoveredMicros: 0,
      keyPrefix: entries[0]!.keyPrefix,
      upstreamModel: 'claude-upstream',
      estimated: false,
      warnings: ['temperature (lossy-conversion)'],
    });
  });

  it('commits requests finished in the same turn as one batch', async () => {
    const { test, scheduled, runScheduled } = await ledgerEngine(3);
    const commitUsage = jest.spyOn(test.store, 'commitUsage');
    await Promise.all([generate(test), generate(test, 'openai-chat'), generate(test)]);
    await new Promise(resolve => setImmediate(resolve));
    expect(scheduled()).toEqual([USAGE_COMMIT_DELAY_MS]);
    runScheduled();
    await test.recorded(3);
    expect(commitUsage).toHaveBeenCalledTimes(1);
    expect(commitUsage.mock.calls[0]![0]).toHaveLength(3);
    expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros - 3 * 35, reservedMicros: 0 });
  });

  it('writes a refusal’s row too, with no charge', async () => {
    const { test, runScheduled } = await ledgerEngine();
    const exchange = await test.open('openai-responses');
    await expect(exchange.generate({ model: 'no-such-model', input: 'hi' }, new AbortController().signal)).rejects.toMatchObject({ status: 404 });
    runScheduled();
    await test.recorded();
    const { entries } = await test.store.listUsage({}, { limit: 5 });
    expect(entries).toEqual([
      expect.objectContaining({ requestId: exchange.requestId, status: 404, outcome: 'error', errorCode: 'MODEL_NOT_FOUND', costMicros: 0, attempts: 0 }),
    ]);
  });

  it('commits what is still queued when the engine drains, without waiting for the writer’s turn', async () => {
    const { test, scheduled } = await ledgerEngine();
    await generate(test);
    await new Promise(resolve => setImmediate(resolve));
    expect(scheduled()).toEqual([USAGE_COMMIT_DELAY_MS]);
    await test.engine.drain(0);
    // Drained: the charge and the row are in, though the scheduled turn never ran.
    expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros - 35, reservedMicros: 0 });
    expect((await test.store.listUsage({}, { limit: 5 })).entries).toHaveLength(1);
    expect(await test.recorded()).toHaveLength(1);
  });

  it('commits what is still queued when the engine closes', async () => {
    const { test } = await ledgerEngine();
    await generate(test);
    await test.engine.close();
    expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros - 35, reservedMicros: 0 });
    expect((await test.store.listUsage({}, { limit: 5 })).entries).toHaveLength(1);
  });

  it('reports a failing ledger, retries the batch with backoff, and keeps the hold when every attempt fails (the store’s sweep releases it)', async () => {
    const errors: unknown[] = [];
    const test = await createTestEngine({
      upstreams: { a: { protocol: 'anthropic-messages', answers: [{ body: answer }] } },
      routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'a', model: 'claude-upstream' }], pricing }],
      onRecorderError: error => void errors.push(error),
    });
    const failure = new Error('disk I/O error');
    jest.spyOn(test.store, 'commitUsage').mockRejectedValue(failure);
    await generate(test);
    const [record] = await test.recorded();
    // Waits of 0.2, 0.4, 0.8, 1.6, 3.2, then 5 s each while the waits stay within 30 s: 10 attempts, the first failure and the give-up reported.
    expect(test.sleeps).toEqual([200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000, 5_000]);
    expect(errors).toEqual([failure, expect.objectContaining({ code: 'STORE_UNAVAILABLE', cause: failure })]);
    expect((errors[1] as Error).message).toMatch(/^Gave up writing 1 usage rows \(1 with a hold, 35 micro-units of cost\) after 10 attempts/);
    expect(record).toMatchObject({ costMicros: 0, uncoveredMicros: 35 });
    const account = await test.account();
    expect(account.balanceMicros).toBe(test.openingBalanceMicros);
    expect(account.reservedMicros).toBeGreaterThan(0);
  });
});
