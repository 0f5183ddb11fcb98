import { trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { EngineObserver } from '@signalbox/engine';
import { traceExchange } from './trace-exchange';

export type TracingObserverOptions = {
  /** The tracer to make spans with. */
  tracer?: Tracer;
  /** Where to get the tracer when none is given; default the global provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
};

/** The instrumentation scope the spans are reported under. */
export const TRACER_NAME = '@signalbox/tracing-otel';

/**
 * An engine observer that traces with OpenTelemetry: a SERVER span per request (continuing the
 * client's W3C `traceparent`), a CLIENT span per upstream attempt as its child (whose
 * `traceparent` is sent upstream), with the GenAI semantic-convention attributes. The request's
 * trace id lands in its usage record. Spans carry ids, names, codes and counts, never text from a
 * prompt or an answer (the engine's observation gives the observer none).
 */
export function createTracingObserver(options: TracingObserverOptions = {}): EngineObserver {
  const tracer = options.tracer ?? (options.tracerProvider ?? trace.getTracerProvider()).getTracer(TRACER_NAME);
  return { watchExchange: start => traceExchange(tracer, start) };
}
