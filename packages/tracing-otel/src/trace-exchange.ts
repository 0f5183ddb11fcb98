import { isSpanContextValid, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { ExchangeStart, ExchangeWatcher, ObservedEnding } from '@signalbox/engine';
import { ATTRIBUTE, isFailure, OPERATION, providerAttributes, resultAttributes } from './span-attributes';
import { traceAttempt } from './trace-attempt';
import { extractClientContext } from './trace-context-carrier';

/**
 * One request as a SERVER span: a child of the client's trace when its `traceparent` is valid,
 * else the root of a new trace. It ends when the request settles; its trace id is the one the
 * usage record (and so the ledger row) keeps.
 */
export function traceExchange(tracer: Tracer, start: ExchangeStart): ExchangeWatcher {
  const clientContext = extractClientContext(ROOT_CONTEXT, start.headers);
  const span = tracer.startSpan(
    OPERATION,
    {
      kind: SpanKind.SERVER,
      attributes: { [ATTRIBUTE.operationName]: OPERATION, [ATTRIBUTE.requestId]: start.requestId, [ATTRIBUTE.interface]: start.protocol },
    },
    clientContext,
  );
  const spanContext = span.spanContext();
  const serverContext = trace.setSpan(clientContext, span);
  return {
    // A tracer that records nothing and had no client trace to continue has no valid id to keep.
    ...(isSpanContextValid(spanContext) && { traceId: spanContext.traceId }),
    attemptStarted: attempt => traceAttempt(tracer, serverContext, attempt),
    responseStarted: kind => void span.addEvent('signalbox.response_started', { 'signalbox.response.kind': kind }),
    settled: ending => endExchangeSpan(span, ending),
  };
}

/**
 * The span named `chat {route}` after the configured model ID the request was routed by: a bounded
 * name, where the client's own model string (in `gen_ai.request.model`) could be anything. A
 * request that matched no route keeps the bare `chat`.
 */
function endExchangeSpan(span: ReturnType<Tracer['startSpan']>, { record, route, upstreamVendor }: ObservedEnding): void {
  if (route !== undefined) span.updateName(`${OPERATION} ${route}`);
  span.setAttributes({
    ...(record.model !== undefined && { [ATTRIBUTE.requestModel]: record.model }),
    ...(route !== undefined && { [ATTRIBUTE.route]: route }),
    ...(record.upstream !== undefined && { [ATTRIBUTE.upstream]: record.upstream }),
    ...(upstreamVendor !== undefined && providerAttributes(upstreamVendor)),
    ...resultAttributes(record),
    [ATTRIBUTE.attempts]: record.attempts,
    [ATTRIBUTE.outcome]: record.outcome,
    [ATTRIBUTE.httpStatus]: record.status,
    ...(record.errorCode !== undefined && { [ATTRIBUTE.errorCode]: record.errorCode }),
  });
  if (isFailure(record)) {
    span.setAttribute(ATTRIBUTE.errorType, record.errorCode ?? record.outcome);
    span.setStatus({ code: SpanStatusCode.ERROR, message: record.errorCode ?? record.outcome });
  }
  span.end();
}
