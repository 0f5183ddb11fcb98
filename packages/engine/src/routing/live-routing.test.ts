import { setImmediate as nextTurn } from 'node:timers/promises';
import type { GatewayConfig } from '../config/gateway-config';
import { ConfigError } from '../config/config-error';
import type { GenerationOutput } from '../generation/generation-output';
import { createArrayFrameSink, createTestEngine, readFixture, type TestEngine } from '../testing';

const frames = readFixture('messages-text.sse').split(/(?<=\n\n)/);
const oldPricing = { inputPerMillion: 1, outputPerMillion: 2 };
const newPricing = { inputPerMillion: 10, outputPerMillion: 20 };
const body = { model: 'client-model', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello' }], stream: true };

/** Upstream `a` holds its stream open after the first text until `release`; `b` answers at once. */
async function liveEngine() {
  let release!: () => void;
  const released = new Promise<void>(resolve => (release = resolve));
  const test = await createTestEngine({
    upstreams: {
      a: { protocol: 'anthropic-messages', answers: [{ chunks: frames, pause: { before: 4, until: released } }] },
      b: { protocol: 'anthropic-messages', answers: [{ chunks: frames }] },
    },
    routes: [{ model: 'client-model', interfaces: ['messages'], targets: [{ upstream: 'a', model: 'claude-a' }], pricing: oldPricing }],
    // The retired upstream's idle check sleeps on the engine's clock: here, one turn of the event loop.
    sleep: () => nextTurn(),
  });
  return { test, release };
}

/** The test's config with route `client-model` moved to upstream `b` at new prices and `a` removed. */
function movedToB(config: GatewayConfig): GatewayConfig {
  const [route] = config.routes;
  return {
    ...config,
    upstreams: { b: config.upstreams.b! },
    routes: [{ ...route!, targets: [{ upstream: 'b', model: 'claude-b' }], pricing: newPricing }],
  };
}

async function streamed(test: TestEngine) {
  const exchange = await test.open('anthropic-messages');
  const output: GenerationOutput = await exchange.generate(body, new AbortController().signal);
  if (output.kind !== 'stream') throw new Error('expected a stream');
  const sink = createArrayFrameSink();
  return { sink, piping: output.pipe(sink) };
}

describe('engine.applyConfig: routes and upstreams change between requests, never under one', () => {
  it('finishes a stream begun before the change on its own upstream and prices, while the next request uses the new ones', async () => {
    const { test, release } = await liveEngine();
    const before = await streamed(test);
    while (!before.sink.text().includes('Grüße aus ')) await nextTurn();
    const upstreamB = test.upstream('b');

    const { closed } = test.engine.applyConfig(movedToB(test.engine.config));

    expect(test.engine.routes.map(route => route.targets[0]!.upstream)).toEqual(['b']);
    const after = await streamed(test);
    await after.piping;
    expect(test.upstream('b')).toBe(upstreamB); // unchanged: its client was kept, not opened again
    expect(test.upstream('a').closed).toBe(false); // its stream is still being read
    release();
    const outcome = await before.piping;
    await closed;
    expect(outcome).toMatchObject({ interrupted: false });
    expect(before.sink.text()).toContain('message_stop');
    expect(test.upstream('a').closed).toBe(true);
    expect(test.upstream('b').closed).toBe(false);
    const records = await test.recorded(2);
    const byUpstream = Object.fromEntries(records.map(record => [record.upstream, record]));
    expect(byUpstream.a).toMatchObject({ upstreamModel: 'claude-a', outcome: 'completed' });
    expect(byUpstream.b).toMatchObject({ upstreamModel: 'claude-b', outcome: 'completed' });
    // Same usage, prices ten times higher: the earlier request was charged at the prices it began with.
    expect(byUpstream.b!.costMicros).toBe(byUpstream.a!.costMicros * 10);
    expect(byUpstream.a!.costMicros).toBeGreaterThan(0);
  });

  it('refuses a config naming an interface no codec serves, and keeps the current one', async () => {
    const { test } = await liveEngine();
    const current = test.engine.config;
    const bad = { ...current, routes: [{ ...current.routes[0]!, interfaces: ['gemini'] }] };
    expect(() => test.engine.applyConfig(bad)).toThrow(ConfigError);
    expect(test.engine.config).toBe(current);
    expect(test.engine.routes[0]!.interfaces).toEqual(['messages']);
  });

  it('answers MODEL_NOT_FOUND for a removed route and lists an added one', async () => {
    const { test } = await liveEngine();
    const current = test.engine.config;
    test.engine.applyConfig({ ...current, routes: [{ ...current.routes[0]!, model: 'renamed-model', targets: [{ upstream: 'b', model: 'claude-b' }] }] });
    const exchange = await test.open('anthropic-messages');
    await expect(exchange.generate(body, new AbortController().signal)).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    const principal = exchange.principal!;
    const listed = test.engine.listModels(principal, test.engine.registry.codec('anthropic-messages')) as { data: { id: string }[] };
    expect(listed.data.map(model => model.id)).toEqual(['renamed-model']);
  });
});
