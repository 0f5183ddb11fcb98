import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { GatewayError } from '@signalbox/core';
import { allCodecs, createArrayFrameSink, createFailoverTestEngine, createTestEngine, OVERLOADED_ANSWER, readFixture } from '@signalbox/engine/testing';
import { createTracingObserver } from './create-tracing-observer';

const CLIENT_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CLIENT_SPAN_ID = 'b7ad6b7169203331';
const PROMPT = 'Say hello to the tracing test';

/** A tracer provider whose finished spans are kept in memory, in the order they ended. */
function createRecordingTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { observer: createTracingObserver({ tracerProvider: provider }), spans: () => exporter.getFinishedSpans() };
}

/** A route whose first upstream is overloaded, so its answer comes from the second one (a failover). */
function failoverEngine(observer: ReturnType<typeof createTracingObserver>) {
  return createFailoverTestEngine({ observer });
}

function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter(span => span.name === name);
  if (found.length !== 1) throw new Error(`expected one span named ${name}, found ${found.length}`);
  return found[0]!;
}

beforeEach(() => jest.spyOn(Math, 'random').mockReturnValue(0));
afterEach(() => jest.restoreAllMocks());

describe('createTracingObserver', () => {
  it('continues the client trace with a server span and one client span per attempt, whose traceparent goes upstream', async () => {
    const { observer, spans } = createRecordingTracing();
    const test = await failoverEngine(observer);
    const exchange = await test.open('openai-responses', { traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`, tracestate: 'vendor=1' });
    const output = await exchange.generate({ model: 'client-model', input: PROMPT, stream: true }, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    await output.pipe(createArrayFrameSink());
    const [record] = await test.recorded();

    const server = spanNamed(spans(), 'chat client-model');
    const failed = spanNamed(spans(), 'chat a-model');
    const served = spanNamed(spans(), 'chat b-model');
    expect(spans()).toHaveLength(3);
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext().traceId).toBe(CLIENT_TRACE_ID);
    expect(server.parentSpanContext?.spanId).toBe(CLIENT_SPAN_ID);
    expect(record!.traceId).toBe(CLIENT_TRACE_ID);
    for (const attempt of [failed, served]) {
      expect(attempt.kind).toBe(SpanKind.CLIENT);
      expect(attempt.spanContext().traceId).toBe(CLIENT_TRACE_ID);
      expect(attempt.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    }
    // Each upstream call carried the traceparent of its own attempt span, and the client's tracestate.
    expect(test.calls.map(call => call.headers['traceparent'])).toEqual([
      `00-${CLIENT_TRACE_ID}-${failed.spanContext().spanId}-01`,
      `00-${CLIENT_TRACE_ID}-${served.spanContext().spanId}-01`,
    ]);
    expect(test.calls.map(call => call.headers['tracestate'])).toEqual(['vendor=1', 'vendor=1']);

    expect(server.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.system': 'anthropic',
      'gen_ai.request.model': 'client-model',
      'gen_ai.response.model': 'b-model',
      'gen_ai.usage.input_tokens': record!.usage!.inputTokens,
      'gen_ai.usage.output_tokens': record!.usage!.outputTokens,
      'gen_ai.response.finish_reasons': ['stop'],
      'http.response.status_code': 200,
      'signalbox.request_id': record!.requestId,
      'signalbox.interface': 'openai-responses',
      'signalbox.route': 'client-model',
      'signalbox.upstream': 'b',
      'signalbox.attempts': 2,
      'signalbox.outcome': 'completed',
    });
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(server.events.map(event => [event.name, event.attributes])).toEqual([['signalbox.response_started', { 'signalbox.response.kind': 'stream' }]]);

    expect(failed.attributes).toMatchObject({
      'gen_ai.request.model': 'a-model',
      'signalbox.upstream': 'a',
      'signalbox.upstream.credential': 'default',
      'signalbox.attempt': 1,
      'signalbox.outcome': 'failed',
      'signalbox.error.code': 'UPSTREAM_OVERLOADED',
      'signalbox.retried': true,
      'error.type': 'UPSTREAM_OVERLOADED',
      'http.response.status_code': 529,
    });
    expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: 'UPSTREAM_OVERLOADED' });
    expect(served.attributes).toMatchObject({
      'gen_ai.request.model': 'b-model',
      'gen_ai.response.model': 'b-model',
      'gen_ai.usage.output_tokens': record!.usage!.outputTokens,
      'signalbox.attempt': 2,
      'signalbox.failover': true,
      'signalbox.retry_reason': 'UPSTREAM_OVERLOADED',
      'signalbox.outcome': 'completed',
    });
    expect(served.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('puts no prompt or answer text in any span', async () => {
    const { observer, spans } = createRecordingTracing();
    const test = await failoverEngine(observer);
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate({ model: 'client-model', input: PROMPT, stream: true }, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink();
    await output.pipe(sink);
    await test.recorded();

    const written = JSON.stringify(spans().map(span => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })));
    expect(spans()).toHaveLength(3);
    expect(written).not.toContain('hello to the tracing');
    // The answer the upstream streamed ("Grüße aus Oslo 🌍!") reached the client and no span.
    expect(sink.writes.join('')).toContain('Oslo');
    expect(written).not.toContain('Oslo');
  });

  it('starts a new trace when the client sent none, and keeps its id in the usage record', async () => {
    const { observer, spans } = createRecordingTracing();
    const test = await failoverEngine(observer);
    const exchange = await test.open('openai-responses', { traceparent: 'not a trace context' });
    const output = await exchange.generate({ model: 'client-model', input: PROMPT, stream: true }, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    await output.pipe(createArrayFrameSink());
    const [record] = await test.recorded();

    const server = spanNamed(spans(), 'chat client-model');
    expect(server.parentSpanContext).toBeUndefined();
    expect(record!.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(record!.traceId).toBe(server.spanContext().traceId);
  });

  it("keeps the client's decision not to sample: no span is exported, the trace id is still recorded and sent upstream unsampled", async () => {
    const { observer, spans } = createRecordingTracing();
    const test = await failoverEngine(observer);
    const exchange = await test.open('openai-responses', { traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-00` });
    const output = await exchange.generate({ model: 'client-model', input: PROMPT, stream: true }, new AbortController().signal);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    await output.pipe(createArrayFrameSink());
    const [record] = await test.recorded();

    expect(spans()).toEqual([]);
    expect(record!.traceId).toBe(CLIENT_TRACE_ID);
    for (const call of test.calls) expect(call.headers['traceparent']).toMatch(new RegExp(`^00-${CLIENT_TRACE_ID}-[0-9a-f]{16}-00$`));
    expect(test.calls).toHaveLength(2);
  });

  it('ends a refused request with a bare chat span, its status and code, and no error status for a 4xx', async () => {
    const { observer, spans } = createRecordingTracing();
    const test = await failoverEngine(observer);
    const exchange = test.engine.openExchange({ protocol: 'openai-chat' });
    exchange.refuse(new GatewayError({ code: 'API_KEY_INVALID', message: 'Invalid API key.' }));
    await test.recorded();

    const [server] = spans();
    expect(spans()).toHaveLength(1);
    expect(server!.name).toBe('chat');
    expect(server!.attributes).toMatchObject({
      'http.response.status_code': 401,
      'signalbox.outcome': 'error',
      'signalbox.error.code': 'API_KEY_INVALID',
      'signalbox.attempts': 0,
    });
    expect(server!.attributes['signalbox.route']).toBeUndefined();
    expect(server!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('marks the server span as an error when every attempt failed', async () => {
    const { observer, spans } = createRecordingTracing();
    const test = await createTestEngine({
      upstreams: { a: { protocol: 'anthropic-messages', answers: [OVERLOADED_ANSWER, OVERLOADED_ANSWER, OVERLOADED_ANSWER, OVERLOADED_ANSWER] } },
      routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'a', model: 'a-model' }] }],
      observer,
    });
    const exchange = await test.open('openai-responses');
    await expect(exchange.generate({ model: 'client-model', input: PROMPT }, new AbortController().signal)).rejects.toMatchObject({
      code: 'UPSTREAM_OVERLOADED',
    });
    const [record] = await test.recorded();

    const server = spanNamed(spans(), 'chat client-model');
    const attempts = spans().filter(span => span.kind === SpanKind.CLIENT);
    expect(attempts).toHaveLength(record!.attempts);
    expect(attempts.map(span => span.attributes['signalbox.retried'])).toEqual([...Array(record!.attempts - 1).fill(true), false]);
    expect(server.status).toEqual({ code: SpanStatusCode.ERROR, message: 'UPSTREAM_OVERLOADED' });
    expect(server.attributes).toMatchObject({ 'http.response.status_code': record!.status, 'error.type': 'UPSTREAM_OVERLOADED' });
  });

  it("names the provider by the upstream codec's vendor, not by its protocol's name", async () => {
    const messages = allCodecs.find(codec => codec.protocol === 'anthropic-messages')!;
    // A compatible vendor's codec: its protocol's name starts like Anthropic's, its vendor is its own.
    const acme = { ...messages, protocol: 'anthropic-acme', descriptor: { ...messages.descriptor, vendor: 'acme', interfaceName: 'acme', generationPath: '/v1/acme/messages', tokenCountPath: '/v1/acme/messages/count_tokens' } };
    const { observer, spans } = createRecordingTracing();
    const test = await createTestEngine({
      codecs: [...allCodecs, acme],
      upstreams: { a: { protocol: 'anthropic-acme', answers: [{ body: readFixture('messages-answer.json') }] } },
      routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'a', model: 'acme-1' }] }],
      observer,
    });
    const exchange = await test.open('openai-responses');
    expect((await exchange.generate({ model: 'client-model', input: PROMPT }, new AbortController().signal)).kind).toBe('json');
    await test.recorded();

    for (const span of [spanNamed(spans(), 'chat client-model'), spanNamed(spans(), 'chat acme-1')]) {
      expect(span.attributes).toMatchObject({ 'gen_ai.provider.name': 'acme', 'gen_ai.system': 'acme' });
    }
  });
});
