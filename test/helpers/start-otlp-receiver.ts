import { gunzipSync } from 'node:zlib';
import { listenOnLoopback } from './listen-on-loopback';

/** An OTLP/JSON attribute value (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding). */
type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};

type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
  events?: Array<{ name: string }>;
  status?: { code?: number; message?: string };
};

type OtlpTraceRequest = {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: OtlpValue }> };
    scopeSpans?: Array<{ scope?: { name?: string }; spans?: OtlpSpan[] }>;
  }>;
};

/** A received span with its attributes as plain values, and its resource's `service.name`. */
export type ReceivedSpan = Omit<OtlpSpan, 'attributes'> & {
  attributes: Record<string, unknown>;
  serviceName: unknown;
  scope: string | undefined;
};

export type OtlpReceiver = {
  /** The traces URL to export to (`…/v1/traces`). */
  tracesURL: string;
  /** Every span received so far, in the order they arrived. */
  spans(): ReceivedSpan[];
  /** The raw request bodies received, as text. */
  bodies(): string[];
  close(): Promise<void>;
};

/** Protobuf-JSON's attribute value as a plain one: 64-bit integers arrive as strings or numbers. */
function plainValue(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(plainValue);
  return undefined;
}

function plainAttributes(attributes: Array<{ key: string; value: OtlpValue }> | undefined): Record<string, unknown> {
  return Object.fromEntries((attributes ?? []).map(({ key, value }) => [key, plainValue(value)]));
}

/**
 * A collector's OTLP/HTTP traces endpoint on 127.0.0.1 (`POST /v1/traces`, JSON, gzip or not):
 * it keeps what it is sent and answers 200 with an empty partial-success object, as a collector does.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: OtlpTraceRequest[] = [];
  const texts: string[] = [];
  const server = await listenOnLoopback((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !String(request.headers['content-type']).startsWith('application/json')) {
        response.writeHead(415, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const raw = Buffer.concat(chunks);
      const text = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      texts.push(text);
      received.push(JSON.parse(text) as OtlpTraceRequest);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return {
    tracesURL: `${server.url}/v1/traces`,
    spans: () =>
      received.flatMap(body =>
        (body.resourceSpans ?? []).flatMap(resourceSpans => {
          const serviceName = plainAttributes(resourceSpans.resource?.attributes)['service.name'];
          return (resourceSpans.scopeSpans ?? []).flatMap(scopeSpans =>
            (scopeSpans.spans ?? []).map(span => ({ ...span, attributes: plainAttributes(span.attributes), serviceName, scope: scopeSpans.scope?.name })),
          );
        }),
      ),
    bodies: () => [...texts],
    close: () => server.close(),
  };
}
