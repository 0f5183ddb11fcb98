import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { EngineObserver } from '@signalbox/engine';
import { createTracingObserver } from '@signalbox/tracing-otel';
import type { TracingSettings } from './read-tracing-settings';

/** The example server's tracing: the observer to give the gateway, and how to flush and stop it. */
export type OpenedTracing = {
  observer: EngineObserver;
  /**
   * Exports the spans still batched, then stops: after the gateway closed, so every span has
   * ended. Never rejects: a failed last export is reported like any other.
   */
  close(): Promise<void>;
};

/**
 * A tracer provider of the server's own (not the global one, which a host embedding the server
 * may have set up) whose spans are batched and sent as OTLP/HTTP JSON to `settings.url`, under
 * the resource `service.name`. A batch the collector did not take (down, refusing) is dropped and
 * reported to `onExportError`, once per batch; requests never wait for it. Loaded on demand
 * (`loadTracingOpener`), so a server that does not trace loads none of the OpenTelemetry SDK.
 */
export function openTracing(settings: TracingSettings, onExportError: (error: unknown) => void): OpenedTracing {
  let lastReported: unknown;
  const report = (error: unknown) => {
    lastReported = error;
    onExportError(error);
  };
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName }),
    spanProcessors: [new BatchSpanProcessor(reportingFailures(new OTLPTraceExporter({ url: settings.url }), report))],
  });
  return {
    observer: createTracingObserver({ tracerProvider: provider }),
    // The processor rejects a failed last flush with the error the exporter reported: not twice.
    close: () => provider.shutdown().catch((error: unknown) => void (error !== lastReported && report(error))),
  };
}

/** `exporter`, telling `onError` about each batch it failed to send. */
function reportingFailures(exporter: SpanExporter, onError: (error: unknown) => void): SpanExporter {
  return {
    export(spans, done) {
      exporter.export(spans, result => {
        if (result.code === ExportResultCode.FAILED) onError(result.error ?? new Error('The trace collector did not take a batch of spans.'));
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
