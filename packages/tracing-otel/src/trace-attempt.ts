import { SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { GatewayError } from '@signalbox/core';
import type { AttemptEnding, AttemptStart, AttemptWatcher } from '@signalbox/engine';
import { ATTRIBUTE, isFailure, OPERATION, providerAttributes, resultAttributes } from './span-attributes';
import { injectTraceContext } from './trace-context-carrier';

/**
 * One upstream attempt as a CLIENT span, child of the request's server span (`parent`), named
 * `chat {model sent upstream}`. Its `traceparent` goes upstream with the call, so the upstream's
 * own spans join the trace under this attempt. It ends when the attempt does: a stream's attempt
 * when the stream settles.
 */
export function traceAttempt(tracer: Tracer, parent: Context, attempt: AttemptStart): AttemptWatcher {
  const span = tracer.startSpan(
    `${OPERATION} ${attempt.model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTRIBUTE.operationName]: OPERATION,
        ...providerAttributes(attempt.vendor),
        [ATTRIBUTE.requestModel]: attempt.model,
        [ATTRIBUTE.route]: attempt.route,
        [ATTRIBUTE.upstream]: attempt.upstream,
        ...(attempt.credential !== undefined && { [ATTRIBUTE.credential]: attempt.credential }),
        [ATTRIBUTE.attempt]: attempt.number,
        ...(attempt.after && { [ATTRIBUTE.retryReason]: attempt.after.errorCode, [ATTRIBUTE.failover]: attempt.after.failover }),
      },
    },
    parent,
  );
  return {
    headers: injectTraceContext(trace.setSpan(parent, span)),
    ended: ending => endAttemptSpan(span, ending),
  };
}

function endAttemptSpan(span: Span, ending: AttemptEnding): void {
  if (ending.kind === 'served') {
    const { record } = ending;
    span.setAttributes({ ...resultAttributes(record), [ATTRIBUTE.outcome]: record.outcome });
    if (isFailure(record)) {
      if (record.errorCode !== undefined) span.setAttributes({ [ATTRIBUTE.errorCode]: record.errorCode, [ATTRIBUTE.errorType]: record.errorCode });
      span.setStatus({ code: SpanStatusCode.ERROR, message: record.errorCode ?? record.outcome });
    }
  } else if (GatewayError.isInstance(ending.error)) {
    // The code and the upstream's status only: an upstream's message may quote the prompt.
    const { code, upstream } = ending.error;
    span.setAttributes({
      [ATTRIBUTE.outcome]: 'failed',
      [ATTRIBUTE.errorCode]: code,
      [ATTRIBUTE.errorType]: code,
      [ATTRIBUTE.retried]: ending.retried,
      ...(upstream?.status !== undefined && { [ATTRIBUTE.httpStatus]: upstream.status }),
    });
    span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  } else {
    // The client left: not the upstream's failure, so the status stays unset.
    span.setAttributes({ [ATTRIBUTE.outcome]: 'client-aborted', [ATTRIBUTE.retried]: false });
  }
  span.end();
}
