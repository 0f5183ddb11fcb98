import { type Context, type TextMapGetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { HeaderMap } from '@signalbox/core';

/**
 * The W3C Trace Context propagator (`traceparent`, `tracestate`,
 * https://www.w3.org/TR/trace-context/): used directly rather than through the global propagator,
 * so a host's own OpenTelemetry set-up (or none) never changes what the gateway reads and sends.
 */
const propagator = new W3CTraceContextPropagator();

/** Reads a header of the transport's map, whose names are lower case and whose values may be lists. */
const headerGetter: TextMapGetter<HeaderMap> = {
  keys: headers => Object.keys(headers),
  get(headers, name) {
    const value = headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  },
};

/** `context` with the client's trace as parent, when its headers carry a valid `traceparent`. */
export function extractClientContext(context: Context, headers: HeaderMap | undefined): Context {
  return headers === undefined ? context : propagator.extract(context, headers, headerGetter);
}

/** The `traceparent` (and `tracestate`, when there is one) naming the span current in `context`. */
export function injectTraceContext(context: Context): Record<string, string> {
  const headers: Record<string, string> = {};
  propagator.inject(context, headers, {
    set(carrier, name, value) {
      carrier[name] = value;
    },
  });
  return headers;
}
