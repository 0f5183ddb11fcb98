import { z } from 'zod';
import { readConfigFileSection } from './read-config-file-section';

const tracingSection = z.strictObject({
  /**
   * The collector's OTLP/HTTP address, like `OTEL_EXPORTER_OTLP_ENDPOINT` (`http://127.0.0.1:4318`,
   * `/v1/traces` is added), or the full traces URL ending in `/v1/traces`.
   */
  endpoint: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL, such as http://127.0.0.1:4318' }),
  /** The `service.name` of the spans; `OTEL_SERVICE_NAME` wins over it. Default `signalbox`. */
  serviceName: z.string().trim().min(1, 'must not be empty').max(200).optional(),
});

/** The config file's `tracing` section: where the example server sends its OpenTelemetry traces. */
export type ConfigFileTracing = z.infer<typeof tracingSection>;

/**
 * Validates the `tracing` section of the config file at `path` (absent: `undefined`). A problem is
 * a `ConfigFileError` naming the file and each path at fault (`tracing.endpoint: must be …`).
 */
export function readConfigFileTracing(path: string, section: unknown): ConfigFileTracing | undefined {
  return readConfigFileSection(path, 'tracing', tracingSection, section);
}
