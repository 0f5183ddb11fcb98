import type { GatewayError, JSONObject } from '@signalbox/core';
import {
  createArrayFrameSink,
  createTestEngine,
  messagesError,
  messagesRateLimited,
  messagesServed as served,
  messagesServedMany as servedMany,
  readFixture,
  TEST_NOW,
  type ScriptedAnswer,
  type TestEngineOptions,
} from '../testing';
import type { GenerationOutput } from '../generation/generation-output';
import type { AffinityOutcome } from './session-affinity';

// A Responses client in front of a Messages upstream with three keys: which key each turn of a conversation uses.
const rateLimited = messagesRateLimited(30);
const overloaded = messagesError(529, 'overloaded_error');

type Targets = Record<string, Record<string, readonly ScriptedAnswer[]>>;

/** An engine whose one route has a target per entry of `targets`, each a pool of the credentials given, on a clock the test moves. */
async function affinityEngine(targets: Targets, options: Partial<TestEngineOptions> & { routeSetting?: boolean } = {}) {
  const clock = { now: TEST_NOW };
  const outcomes: AffinityOutcome[] = [];
  const { routeSetting, ...rest } = options;
  const test = await createTestEngine({
    upstreams: Object.fromEntries(
      Object.entries(targets).map(([name, credentials]) => [
        name,
        { protocol: 'anthropic-messages' as const, credentials: Object.entries(credentials).map(([credential, answers]) => ({ name: credential, answers })) },
      ]),
    ),
    routes: [
      {
        model: 'client-model',
        interfaces: ['responses'],
        targets: Object.keys(targets).map(upstream => ({ upstream, model: `${upstream}-model` })),
        ...(routeSetting !== undefined && { sessionAffinity: routeSetting }),
      },
    ],
    now: () => clock.now,
    observer: { sessionAffinity: outcome => void outcomes.push(outcome) },
    ...rest,
  });
  /** One turn of the conversation `session` (its agent's `session_id` header): the credential that served it, and its record. */
  const turn = async (session: string | undefined, body: JSONObject = { model: 'client-model', input: 'Say hello' }) => {
    const exchange = await test.open('openai-responses', session === undefined ? {} : { session_id: session });
    const output = await exchange.generate(body, new AbortController().signal);
    const records = await test.recorded(test.records.length + 1);
    const record = records.at(-1)!;
    return { output, record, used: `${record.upstream}/${record.upstreamCredential}` };
  };
  return { test, clock, outcomes, turn };
}

/** The id of a JSON Responses answer. */
function responseIdOf(output: GenerationOutput): string {
  if (output.kind !== 'json') throw new Error('expected a JSON answer');
  return (output.body as { id: string }).id;
}

beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));
afterEach(() => jest.restoreAllMocks());

describe('session affinity over a pool of three credentials', () => {
  it('keeps each conversation on the credential that served its first turn', async () => {
    const { turn, outcomes } = await affinityEngine({ main: { a: servedMany(8), b: servedMany(8), c: servedMany(8) } });
    const used: string[] = [];
    for (let round = 0; round < 4; round += 1) {
      used.push((await turn('session-one')).used, (await turn('session-two')).used);
    }
    expect(used).toEqual(['main/a', 'main/b', 'main/a', 'main/b', 'main/a', 'main/b', 'main/a', 'main/b']);
    expect(outcomes.map(outcome => outcome.result)).toEqual(['new', 'new', 'kept', 'kept', 'kept', 'kept', 'kept', 'kept']);
    expect(outcomes[2]).toEqual({ route: 'client-model', result: 'kept', upstream: 'main', credential: 'a' });
  });

  it('moves a conversation whose credential cools down, says so on the usage row and to the observer, and keeps it where it moved', async () => {
    const { turn, outcomes, clock } = await affinityEngine({ main: { a: [served, rateLimited, served], b: servedMany(4), c: servedMany(4) } });
    expect((await turn('session-one')).used).toBe('main/a');
    const moved = await turn('session-one');
    expect(moved.used).toBe('main/b');
    expect(moved.record.warnings).toContain('sessionAffinity (moved from main/a to main/b: cooling-down)');
    expect(outcomes.at(-1)).toEqual({
      route: 'client-model',
      result: 'moved',
      upstream: 'main',
      credential: 'b',
      from: { upstream: 'main', credential: 'a' },
      reason: 'cooling-down',
    });
    // The client's warnings header does not name the operator's credentials.
    expect(moved.output.headers?.['x-signalbox-warnings'] ?? '').not.toContain('main/a');
    clock.now = TEST_NOW + 60_000;
    const after = await turn('session-one');
    expect(after.used).toBe('main/b');
    expect(after.record.warnings).toEqual([]);
    expect(outcomes.at(-1)?.result).toBe('kept');
  });

  it('tries the target the conversation kept first, the route order after it', async () => {
    const { test, turn } = await affinityEngine({ first: { a: [overloaded, served, served] }, second: { c: servedMany(3) } });
    expect((await turn('session-one')).used).toBe('second/c');
    const calls = test.calls.length;
    expect((await turn('session-one')).used).toBe('second/c');
    // The kept target answered at once: the first target was not asked again.
    expect(test.calls.slice(calls).map(call => call.upstream)).toEqual(['second']);
    // Another conversation follows the route's order.
    expect((await turn('session-two')).used).toBe('first/a');
  });

  it('does nothing sticky when turned off, and a route may turn it back on', async () => {
    const off = await affinityEngine({ main: { a: servedMany(3), b: servedMany(3), c: servedMany(3) } }, { sessionAffinity: { enabled: false } });
    const used = [(await off.turn('session-one')).used, (await off.turn('session-one')).used, (await off.turn('session-one')).used];
    expect(used).toEqual(['main/a', 'main/b', 'main/c']);
    expect(off.outcomes).toEqual([]);

    const on = await affinityEngine({ main: { a: servedMany(3), b: servedMany(3), c: servedMany(3) } }, { sessionAffinity: { enabled: false }, routeSetting: true });
    expect([(await on.turn('session-one')).used, (await on.turn('session-one')).used]).toEqual(['main/a', 'main/a']);
  });

  it('forgets a conversation idle past idleTimeoutMs', async () => {
    const { turn, clock, outcomes } = await affinityEngine({ main: { a: servedMany(3), b: servedMany(3) } }, { sessionAffinity: { idleTimeoutMs: 1_000 } });
    await turn('session-one');
    clock.now = TEST_NOW + 999;
    await turn('session-one');
    clock.now = TEST_NOW + 999 + 1_000;
    await turn('session-one');
    expect(outcomes.map(outcome => outcome.result)).toEqual(['new', 'kept', 'new']);
  });

  it('keeps a previous_response_id chain on the credential of its first turn, by the key kept with its responses', async () => {
    const { test, turn } = await affinityEngine({ main: { a: servedMany(3), b: servedMany(3), c: servedMany(3) } });
    const first = await turn(undefined, { model: 'client-model', input: 'Say hello', prompt_cache_key: 'my-conversation' });
    expect(first.used).toBe('main/a');
    // Another conversation takes the next credential in the rotation.
    expect((await turn('session-two')).used).toBe('main/b');
    const firstId = responseIdOf(first.output);
    // No cache key, other instructions: only the chain says which conversation this is.
    const second = await turn(undefined, { model: 'client-model', input: 'And again', instructions: 'Be brief.', previous_response_id: firstId });
    expect(second.used).toBe('main/a');
    const secondId = responseIdOf(second.output);
    const kept = await test.store.getResponse(test.accountId, secondId, TEST_NOW);
    expect(kept?.conversationKey).toBe((await test.store.getResponse(test.accountId, firstId, TEST_NOW))?.conversationKey);
    expect(kept?.conversationKey).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('pins a streamed answer once it is served, as a JSON one', async () => {
    const stream: ScriptedAnswer = { body: readFixture('messages-text.sse') };
    const { test, outcomes } = await affinityEngine({ main: { a: [stream, stream], b: [stream] } });
    for (let index = 0; index < 2; index += 1) {
      const exchange = await test.open('openai-responses', { session_id: 'streaming' });
      const output = await exchange.generate({ model: 'client-model', input: 'Say hello', stream: true }, new AbortController().signal);
      if (output.kind !== 'stream') throw new Error('expected a stream');
      await output.pipe(createArrayFrameSink());
    }
    expect(test.calls.map(call => call.credential)).toEqual(['a', 'a']);
    expect(outcomes.map(outcome => outcome.result)).toEqual(['new', 'kept']);
  });

  it("sends the conversation key to an OpenAI upstream as its prompt_cache_key when the client sent none, the client's own otherwise", async () => {
    const chatStream: ScriptedAnswer = { body: readFixture('chat-text-no-usage.sse') };
    const test = await createTestEngine({
      upstreams: { openai: { protocol: 'openai-chat', credentials: ['a', 'b'].map(name => ({ name, answers: [chatStream, chatStream, chatStream] })) } },
      routes: [{ model: 'client-model', interfaces: ['chat'], targets: [{ upstream: 'openai', model: 'gpt-upstream' }] }],
    });
    const send = async (fields: JSONObject) => {
      const exchange = await test.open('openai-chat', { session_id: 'codex-session' });
      const output = await exchange.generate({ model: 'client-model', stream: true, messages: [{ role: 'user', content: 'Say hello' }], ...fields }, new AbortController().signal);
      if (output.kind === 'stream') await output.pipe(createArrayFrameSink());
      return test.calls.at(-1)!;
    };
    const first = await send({});
    const second = await send({});
    expect(first.body).toMatchObject({ prompt_cache_key: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });
    expect(second.body.prompt_cache_key).toBe(first.body.prompt_cache_key);
    expect([first.credential, second.credential]).toEqual(['a', 'a']);
    expect((await send({ prompt_cache_key: 'client-key' })).body.prompt_cache_key).toBe('client-key');
  });

  it('pins nothing when the request fails', async () => {
    const { turn, outcomes } = await affinityEngine({ main: { a: [rateLimited], b: [rateLimited] } });
    await expect(turn('session-one')).rejects.toMatchObject({ code: 'UPSTREAM_RATE_LIMITED' } satisfies Partial<GatewayError>);
    expect(outcomes).toEqual([]);
  });
});
