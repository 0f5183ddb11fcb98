export { createTracingObserver, TRACER_NAME, type TracingObserverOptions } from './create-tracing-observer';
export { ATTRIBUTE } from './span-attributes';
