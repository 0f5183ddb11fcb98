import { GatewayError } from '@signalbox/core';
import { createArrayFrameSink, createTestEngine, readFixture } from '../testing';

// A Messages upstream that paused its turn (`pause_turn`: a server tool ran long). The fixtures are
// the engine's synthetic Messages answer with only the stop reason changed, so the bytes stay wire-exact.
const pausedStream = readFixture('messages-text.sse').replace(
  '"stop_reason":"end_turn"',
  '"stop_reason":"pause_turn"',
);
const pausedAnswer = readFixture('messages-answer.json').replace(
  '"stop_reason":"end_turn"',
  '"stop_reason":"pause_turn"',
);
const asClientModel = (text: string) =>
  text.replaceAll('"model":"claude-upstream"', '"model":"client-model"');

/** The protocols whose clients ask for a stream in the body, as these engine-level tests send it. */
type BodyStreamedProtocol = 'anthropic-messages' | 'openai-chat' | 'openai-responses';

const BODIES: Record<BodyStreamedProtocol, (stream: boolean) => Record<string, unknown>> = {
  'anthropic-messages': stream => ({
    model: 'client-model',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'Ferries?' }],
    stream,
  }),
  'openai-chat': stream => ({
    model: 'client-model',
    messages: [{ role: 'user', content: 'Ferries?' }],
    stream,
  }),
  'openai-responses': stream => ({ model: 'client-model', input: 'Ferries?', stream }),
};
const INTERFACES = {
  'anthropic-messages': 'messages',
  'openai-chat': 'chat',
  'openai-responses': 'responses',
} as const;

async function open(client: BodyStreamedProtocol, stream: boolean) {
  const test = await createTestEngine({
    upstreams: {
      a: {
        protocol: 'anthropic-messages',
        answers: [{ body: stream ? pausedStream : pausedAnswer, chunkSize: 13 }],
      },
    },
    routes: [
      {
        model: 'client-model',
        interfaces: [INTERFACES[client]],
        targets: [{ upstream: 'a', model: 'claude-upstream' }],
      },
    ],
  });
  const exchange = await test.open(client);
  return { test, generating: exchange.generate(BODIES[client](stream), new AbortController().signal) };
}

async function pipe(client: BodyStreamedProtocol) {
  const output = await (await open(client, true)).generating;
  if (output.kind !== 'stream') throw new Error('expected a stream');
  const sink = createArrayFrameSink();
  return { sink, outcome: await output.pipe(sink) };
}

describe('an answer its upstream left unfinished (pause_turn)', () => {
  it('reaches a Messages client exactly as the upstream sent it, stream and JSON, so the client can continue the turn', async () => {
    const { sink, outcome } = await pipe('anthropic-messages');
    expect(sink.text()).toBe(asClientModel(pausedStream));
    expect(outcome.error).toBeUndefined();
    expect(outcome.finishReason).toEqual({ unified: 'error', raw: 'pause_turn' });

    const output = await (await open('anthropic-messages', false)).generating;
    expect(output).toMatchObject({
      kind: 'json',
      body: { ...JSON.parse(pausedAnswer), model: 'client-model' },
    });
  });

  it.each<BodyStreamedProtocol>(['openai-chat', 'openai-responses'])(
    'is refused on a translated %s stream: its failure terminal after the text, never a finish',
    async client => {
      const { sink, outcome } = await pipe(client);
      expect(outcome.error).toMatchObject({ code: 'UPSTREAM_FAILED', upstream: { type: 'pause_turn' } });
      expect(outcome.error?.message).toContain("'pause_turn'");
      const text = sink.text();
      expect(text).toContain('Oslo');
      expect(text).not.toMatch(/"finish_reason":"(stop|tool_calls)"|response\.completed/);
      const last = sink.messages().at(-1)!;
      const failed =
        client === 'openai-chat'
          ? { error: { type: 'server_error' } }
          : { type: 'response.failed', response: { status: 'failed' } };
      expect(JSON.parse(last.data)).toMatchObject(failed);
    },
  );

  it.each<BodyStreamedProtocol>(['openai-chat', 'openai-responses'])(
    'is refused as a translated %s JSON answer (502)',
    async client => {
      const { test, generating } = await open(client, false);
      const failure: unknown = await generating.catch((error: unknown) => error);
      expect(GatewayError.isInstance(failure) && failure).toMatchObject({
        code: 'UPSTREAM_FAILED',
        status: 502,
      });
      const [record] = await test.recorded();
      expect(record).toMatchObject({ status: 502, outcome: 'error', errorCode: 'UPSTREAM_FAILED' });
    },
  );
});
