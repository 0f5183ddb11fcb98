import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../examples/server/src';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/start-otlp-receiver';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

// OTLP span kinds and status codes (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding).
const SERVER = 2;
const CLIENT = 3;
const STATUS_ERROR = 2;

const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
const PROMPT = 'Trace this translated stream about lighthouses';

/** Posts a streamed Chat Completions request and reads the stream to its end; returns the status and the text. */
async function streamChat(gateway: TestGateway, model: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${gateway.demoKey}`, ...headers },
    body: JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: PROMPT }] }),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: response.status, text: await response.text() };
}

/** The usage rows of the admin API, newest first. */
async function usageRows(gateway: TestGateway): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${gateway.url}/admin/usage`, { headers: { authorization: `Bearer ${gateway.adminToken}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Array<Record<string, unknown>> }).data;
}

function only(spans: readonly ReceivedSpan[], predicate: (span: ReceivedSpan) => boolean): ReceivedSpan {
  const found = spans.filter(predicate);
  if (found.length !== 1) throw new Error(`expected one matching span, found ${found.length}: ${JSON.stringify(spans.map(span => span.name))}`);
  return found[0]!;
}

describe('OpenTelemetry traces exported over OTLP/HTTP', () => {
  let receiver: OtlpReceiver;
  let overloaded: LoopbackServer;
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-traces-'));
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // An Anthropic-speaking upstream that is always overloaded, so the route fails over.
    overloaded = await listenOnLoopback((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(529, { 'content-type': 'application/json', 'request-id': 'req_overloaded' });
        response.end(JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
      });
    });
  });
  afterAll(async () => {
    await Promise.all([receiver.close(), overloaded.close()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('exports the server span of a translated stream with its upstream attempt as a child, continuing the client trace and sending the attempt upstream', async () => {
    const gateway = await startTestGateway({ tracing: { url: receiver.tracesURL, serviceName: 'signalbox-under-test' } });
    const before = receiver.spans().length;
    const { status, text } = await streamChat(gateway, 'sim-via-messages', {
      traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`,
      tracestate: 'upstream=tested',
    });
    const [row] = await usageRows(gateway);
    const [record] = gateway.recentUsage().slice(-1);
    const seenUpstream = gateway.simulator.requests().at(-1)!;
    // Closing flushes the batched spans to the receiver.
    await gateway.close();

    expect(status).toBe(200);
    expect(text).toContain('data: [DONE]');
    const spans = receiver.spans().slice(before);
    expect(spans).toHaveLength(2);
    const server = only(spans, span => span.kind === SERVER);
    const attempt = only(spans, span => span.kind === CLIENT);
    expect(server).toMatchObject({ name: 'chat sim-via-messages', traceId: CLIENT_TRACE_ID, parentSpanId: CLIENT_SPAN_ID });
    expect(attempt).toMatchObject({ name: 'chat sim-1', traceId: CLIENT_TRACE_ID, parentSpanId: server.spanId });
    expect(server.serviceName).toBe('signalbox-under-test');
    expect(server.scope).toBe('@signalbox/tracing-otel');
    // The simulator was called with the attempt span as parent, and the client's tracestate.
    expect(seenUpstream.url).toBe('/v1/messages');
    expect(seenUpstream.headers['traceparent']).toBe(`00-${CLIENT_TRACE_ID}-${attempt.spanId}-01`);
    expect(seenUpstream.headers['tracestate']).toBe('upstream=tested');

    expect(record!.usage!.inputTokens).toBeGreaterThan(0);
    expect(server.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'sim-via-messages',
      'gen_ai.response.model': 'sim-1',
      'gen_ai.usage.input_tokens': record!.usage!.inputTokens,
      'gen_ai.usage.output_tokens': 64,
      'gen_ai.response.finish_reasons': ['stop'],
      'http.response.status_code': 200,
      'signalbox.request_id': record!.requestId,
      'signalbox.interface': 'openai-chat',
      'signalbox.route': 'sim-via-messages',
      'signalbox.upstream': 'simulator-messages',
      'signalbox.attempts': 1,
      'signalbox.outcome': 'completed',
    });
    expect(server.events?.map(event => event.name)).toEqual(['signalbox.response_started']);
    expect(attempt.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'sim-1',
      'gen_ai.usage.input_tokens': record!.usage!.inputTokens,
      'gen_ai.usage.output_tokens': 64,
      'signalbox.route': 'sim-via-messages',
      'signalbox.upstream': 'simulator-messages',
      'signalbox.attempt': 1,
      'signalbox.outcome': 'completed',
    });
    expect(server.status?.code ?? 0).not.toBe(STATUS_ERROR);
    // The usage record and its ledger row carry the trace id.
    expect(record!.traceId).toBe(CLIENT_TRACE_ID);
    expect(row).toMatchObject({ requestId: record!.requestId, traceId: CLIENT_TRACE_ID });
    // Nothing of the prompt is in what was exported.
    expect(receiver.bodies().join('\n')).not.toContain('lighthouses');
  });

  it('exports one attempt span per upstream call of a failover, the failed one in error, all in one new trace', async () => {
    const configPath = join(folder, 'failover.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        upstreams: {
          overloaded: { protocol: 'anthropic-messages', baseURL: overloaded.url },
          'simulator-chat': { protocol: 'openai-chat', baseURL: 'embedded:simulator/v1' },
        },
        routes: [
          {
            model: 'traced-failover',
            interfaces: ['chat'],
            targets: [
              { upstream: 'overloaded', model: 'busy-1' },
              { upstream: 'simulator-chat', model: 'sim-1' },
            ],
            pricing: { inputPerMillion: 0.5, outputPerMillion: 1.5 },
          },
        ],
        tracing: { endpoint: receiver.tracesURL.replace(/\/v1\/traces$/, ''), serviceName: 'signalbox-failover' },
      }),
    );
    const gateway = await startTestGateway({ configPath });
    const before = receiver.spans().length;
    const { status } = await streamChat(gateway, 'traced-failover');
    const [row] = await usageRows(gateway);
    const [record] = gateway.recentUsage().slice(-1);
    const seenUpstream = gateway.simulator.requests().at(-1)!;
    await gateway.close();

    expect(status).toBe(200);
    const spans = receiver.spans().slice(before);
    expect(spans).toHaveLength(3);
    const server = only(spans, span => span.kind === SERVER);
    const attempts = spans.filter(span => span.kind === CLIENT).sort((left, right) => Number(left.attributes['signalbox.attempt']) - Number(right.attributes['signalbox.attempt']));
    expect(server.parentSpanId ?? '').toBe('');
    expect(server.serviceName).toBe('signalbox-failover');
    expect(server.attributes).toMatchObject({ 'signalbox.attempts': 2, 'signalbox.upstream': 'simulator-chat', 'gen_ai.provider.name': 'openai' });
    expect(attempts.map(span => [span.name, span.traceId, span.parentSpanId])).toEqual([
      ['chat busy-1', server.traceId, server.spanId],
      ['chat sim-1', server.traceId, server.spanId],
    ]);
    expect(attempts[0]!.attributes).toMatchObject({
      'signalbox.upstream': 'overloaded',
      'signalbox.outcome': 'failed',
      'signalbox.error.code': 'UPSTREAM_OVERLOADED',
      'signalbox.retried': true,
      'http.response.status_code': 529,
    });
    expect(attempts[0]!.status).toMatchObject({ code: STATUS_ERROR, message: 'UPSTREAM_OVERLOADED' });
    expect(attempts[1]!.attributes).toMatchObject({
      'signalbox.upstream': 'simulator-chat',
      'signalbox.attempt': 2,
      'signalbox.failover': true,
      'signalbox.retry_reason': 'UPSTREAM_OVERLOADED',
      'signalbox.outcome': 'completed',
    });
    expect(seenUpstream.headers['traceparent']).toBe(`00-${server.traceId}-${attempts[1]!.spanId}-01`);
    expect(record!.traceId).toBe(server.traceId);
    expect(row).toMatchObject({ requestId: record!.requestId, traceId: server.traceId, attempts: 2 });
    expect(receiver.bodies().join('\n')).not.toContain('lighthouses');
  });

  it('says at start where spans go, serves while the collector refuses them, logs each dropped batch without the URL, and closes', async () => {
    const refusing = await listenOnLoopback((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(400, { 'content-type': 'application/json' }).end('{"code":3,"message":"refused"}'));
    });
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }) });
    const gateway = await startTestGateway({ tracing: { url: `${refusing.url}/v1/traces`, serviceName: 'signalbox' }, logger });
    const { status } = await streamChat(gateway, 'sim-via-messages');
    await gateway.close();
    await refusing.close();

    expect(status).toBe(200);
    const logged = lines.map(line => JSON.parse(line) as { level: number; msg: string; error?: { message?: string }; traces?: object });
    expect(logged.filter(line => line.msg === 'tracing on: spans sent over OTLP/HTTP').map(line => [line.level, line.traces])).toEqual([
      [30, { collector: new URL(refusing.url).host, serviceName: 'signalbox' }],
    ]);
    const warnings = logged.filter(line => line.msg === 'trace export failed: spans dropped');
    expect(warnings.map(line => [line.level, line.error?.message])).toEqual([[40, 'Bad Request']]);
    expect(lines.join('')).not.toContain(refusing.url);
  });

  it('leaves the usage row without a trace id when tracing is off', async () => {
    const gateway = await startTestGateway({ tracing: false });
    const before = receiver.spans().length;
    const { status } = await streamChat(gateway, 'sim-via-messages', { traceparent: `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01` });
    const [row] = await usageRows(gateway);
    const seenUpstream = gateway.simulator.requests().at(-1)!;
    await gateway.close();

    expect(status).toBe(200);
    expect(row).toMatchObject({ traceId: null });
    expect(seenUpstream.headers['traceparent']).toBeUndefined();
    expect(receiver.spans().slice(before)).toEqual([]);
  });

  it('honours the standard sampler variables: with OTEL_TRACES_SAMPLER=always_off nothing is exported, yet the trace id is kept and sent upstream unsampled', async () => {
    const saved = process.env['OTEL_TRACES_SAMPLER'];
    process.env['OTEL_TRACES_SAMPLER'] = 'always_off';
    let gateway: TestGateway | undefined;
    try {
      gateway = await startTestGateway({ tracing: { url: receiver.tracesURL, serviceName: 'signalbox-sampled-out' } });
    } finally {
      // The SDK reads the variable when the provider is made: the rest of the suite keeps its own.
      if (saved === undefined) delete process.env['OTEL_TRACES_SAMPLER'];
      else process.env['OTEL_TRACES_SAMPLER'] = saved;
    }
    const before = receiver.spans().length;
    const { status } = await streamChat(gateway, 'sim-via-messages');
    const [row] = await usageRows(gateway);
    const seenUpstream = gateway.simulator.requests().at(-1)!;
    await gateway.close();

    expect(status).toBe(200);
    const traceId = row!['traceId'] as string;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(seenUpstream.headers['traceparent']).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
    expect(receiver.spans().slice(before)).toEqual([]);
  });
});
