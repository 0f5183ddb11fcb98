import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { EngineObserver } from '@switchyard/engine';
import { createTracingObserver } from '@switchyard/tracing-otel';
import type { TracingSettings } from './read-tracing-settings';

/** The example server's tracing: the observer to give the gateway, and how to flush and stop it. */
export type OpenedTracing = {
  observer: EngineObserver;
  /** Exports the spans still batched, then stops: after the gateway closed, so every span has ended. */
  close(): Promise<void>;
};

/**
 * A tracer provider of the server's own (not the global one, which a host embedding the server
 * may have set up) whose spans are batched and sent as OTLP/HTTP JSON to `settings.url`, under
 * the resource `service.name`. Loaded on demand (`loadTracingOpener`), so a server that does not
 * trace loads none of the OpenTelemetry SDK.
 */
export function openTracing(settings: TracingSettings): OpenedTracing {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.url }))],
  });
  return {
    observer: createTracingObserver({ tracerProvider: provider }),
    close: () => provider.shutdown(),
  };
}
