import type { JSONObject } from '@signalbox/core';
import { createTestEngine, readFixture } from '../testing';

/** 1 µ per input token and 1.5 µ per output token: a 20 000-token answer to a 4-token prompt costs 30 004 µ. */
const pricing = { inputPerMillion: 1, outputPerMillion: 1.5 };
type Protocol = 'openai-responses' | 'anthropic-messages' | 'openai-chat';
const protocols: readonly Protocol[] = ['openai-responses', 'anthropic-messages', 'openai-chat'];
const interfaceOf: Record<Protocol, string> = { 'openai-responses': 'responses', 'anthropic-messages': 'messages', 'openai-chat': 'chat' };

/** What each client sends: 'Say hello' with no output limit (Messages requires one: 5 000). */
const clientBodies: Record<Protocol, JSONObject> = {
  'openai-responses': { model: 'client-model', input: 'Say hello' },
  'anthropic-messages': { model: 'client-model', max_tokens: 5000, messages: [{ role: 'user', content: 'Say hello' }] },
  'openai-chat': { model: 'client-model', messages: [{ role: 'user', content: 'Say hello' }] },
};

/** The field of each protocol's upstream body that carries the output cap. */
const capField: Record<Protocol, string> = {
  'openai-responses': 'max_output_tokens',
  'anthropic-messages': 'max_tokens',
  'openai-chat': 'max_completion_tokens',
};

/** A 20 000-token answer in each upstream protocol, far past any cap the gateway gave. */
const longAnswers: Record<Protocol, string> = {
  'anthropic-messages': JSON.stringify({
    ...JSON.parse(readFixture('messages-answer.json')),
    usage: { input_tokens: 4, output_tokens: 20_000 },
  }),
  'openai-responses': JSON.stringify({
    id: 'resp_long',
    object: 'response',
    created_at: 1_767_225_600,
    status: 'completed',
    model: 'upstream-model',
    output: [
      {
        type: 'message',
        id: 'msg_long',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'A very long answer.', annotations: [] }],
      },
    ],
    usage: { input_tokens: 4, output_tokens: 20_000, total_tokens: 20_004 },
  }),
  'openai-chat': JSON.stringify({
    id: 'chatcmpl-long',
    object: 'chat.completion',
    created: 1_767_225_600,
    model: 'upstream-model',
    choices: [{ index: 0, message: { role: 'assistant', content: 'A very long answer.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 4, completion_tokens: 20_000, total_tokens: 20_004 },
  }),
};

async function engineFor(client: Protocol, upstream: Protocol, balanceMicros: number) {
  return createTestEngine({
    upstreams: { a: { protocol: upstream, answers: [{ body: longAnswers[upstream] }] } },
    routes: [
      {
        model: 'client-model',
        interfaces: [interfaceOf[client]],
        targets: [{ upstream: 'a', model: 'upstream-model' }],
        pricing,
      },
    ],
    balanceMicros,
  });
}

const pairs = protocols.flatMap(client => protocols.map(upstream => [client, upstream] as const));

describe('the balance never goes below zero', () => {
  it.each(pairs)(
    'a %s client answered by a %s upstream with 20 000 tokens against a 10 000 µ balance ends at a balance ≥ 0, the shortfall recorded',
    async (client, upstream) => {
      const test = await engineFor(client, upstream, 10_000);
      const exchange = await test.open(client);
      const output = await exchange.generate(clientBodies[client], new AbortController().signal);
      expect(output.kind).toBe('json');
      const [record] = await test.recorded();
      const account = await test.account();
      expect(account.reservedMicros).toBe(0);
      expect(account.balanceMicros).toBeGreaterThanOrEqual(0);
      expect(record!.costMicros).toBe(10_000 - account.balanceMicros);
      expect(record!.costMicros + record!.uncoveredMicros).toBe(4 + 30_000);
      expect(record!.uncoveredMicros).toBeGreaterThan(0);
    },
  );

  it.each(pairs)(
    'a %s client on a %s upstream: the upstream body carries the output cap the hold covers',
    async (client, upstream) => {
      // 'Say hello' is 3 estimated input tokens (3 µ); a balance of 75 µ affords (75 − 3) / 1.5 = 48 output tokens.
      const test = await engineFor(client, upstream, 75);
      const exchange = await test.open(client);
      await exchange.generate(clientBodies[client], new AbortController().signal);
      expect(test.upstream('a').calls[0]!.body[capField[upstream]]).toBe(48);
      const [record] = await test.recorded();
      expect((await test.account()).balanceMicros).toBeGreaterThanOrEqual(0);
      expect(record!.costMicros).toBe(75);
    },
  );

  it.each(pairs)('a %s client on a %s upstream with a balance covering its own smaller limit keeps that limit', async (client, upstream) => {
    const test = await engineFor(client, upstream, 1_000_000);
    const exchange = await test.open(client);
    const limited = { ...clientBodies[client], [capField[client]]: 20 };
    await exchange.generate(limited, new AbortController().signal);
    expect(test.upstream('a').calls[0]!.body[capField[upstream]]).toBe(20);
  });

  it('gives the upstream the route’s reserveOutputTokens when the client set no limit and the balance covers it', async () => {
    const test = await engineFor('openai-responses', 'openai-responses', 1_000_000);
    const exchange = await test.open('openai-responses');
    await exchange.generate(clientBodies['openai-responses'], new AbortController().signal);
    expect(test.upstream('a').calls[0]!.body.max_output_tokens).toBe(4096);
  });

  it('lowers a Chat client’s max_tokens in the field it used on a pass-through route', async () => {
    const test = await engineFor('openai-chat', 'openai-chat', 75);
    const exchange = await test.open('openai-chat');
    await exchange.generate({ ...clientBodies['openai-chat'], max_tokens: 5000 }, new AbortController().signal);
    const sent = test.upstream('a').calls[0]!.body;
    expect(sent.max_tokens).toBe(48);
    expect(sent.max_completion_tokens).toBeUndefined();
  });

  it('refuses with 403 INSUFFICIENT_BALANCE when the balance does not cover the input and 16 output tokens, calling no upstream', async () => {
    // 3 µ of input plus 16 × 1.5 µ of output is 27 µ.
    const test = await engineFor('openai-responses', 'anthropic-messages', 26);
    const exchange = await test.open('openai-responses');
    const failure = await exchange.generate(clientBodies['openai-responses'], new AbortController().signal).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'INSUFFICIENT_BALANCE', status: 403 });
    expect(test.calls).toHaveLength(0);
    expect(await test.account()).toMatchObject({ balanceMicros: 26, reservedMicros: 0 });
  });
});
