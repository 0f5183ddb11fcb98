export { createTracingObserver, type TracingObserverOptions } from './create-tracing-observer';
export { ATTRIBUTE } from './span-attributes';
