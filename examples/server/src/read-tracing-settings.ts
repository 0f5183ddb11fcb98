import type { ConfigFileTracing } from './read-config-file-tracing';
import { StartUpError } from './start-up-error';

/** Where the example server sends its traces, and under which service name. */
export type TracingSettings = {
  /** The full OTLP/HTTP traces URL (`…/v1/traces`). */
  url: string;
  serviceName: string;
};

const DEFAULT_SERVICE_NAME = 'signalbox';

/**
 * Tracing is off unless an endpoint is set: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the traces URL,
 * used as given), else `OTEL_EXPORTER_OTLP_ENDPOINT` (the collector's base URL, `/v1/traces`
 * added), else the config file's `tracing.endpoint`; the environment wins, as OpenTelemetry's
 * SDKs have it (https://opentelemetry.io/docs/specs/otel/protocol/exporter/). The service name is
 * `OTEL_SERVICE_NAME`, else `tracing.serviceName`, else `signalbox`. A bad URL is a
 * `StartUpError` naming the variable.
 */
export function readTracingSettings(environment: NodeJS.ProcessEnv, file: ConfigFileTracing | undefined): TracingSettings | undefined {
  const url = tracesURL(environment, file);
  if (url === undefined) return undefined;
  return { url, serviceName: environment.OTEL_SERVICE_NAME?.trim() || file?.serviceName || DEFAULT_SERVICE_NAME };
}

function tracesURL(environment: NodeJS.ProcessEnv, file: ConfigFileTracing | undefined): string | undefined {
  const traces = environment.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return checkedURL('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces).href;
  const base = environment.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (base) return withTracesPath(checkedURL('OTEL_EXPORTER_OTLP_ENDPOINT', base));
  return file === undefined ? undefined : withTracesPath(new URL(file.endpoint));
}

/** The base URL with `v1/traces` appended to its path, unless it already ends so. */
function withTracesPath(base: URL): string {
  if (/\/v1\/traces\/?$/.test(base.pathname)) return base.href;
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/v1/traces`;
  return url.href;
}

function checkedURL(variable: string, value: string): URL {
  const url = URL.parse(value);
  if (url?.protocol === 'http:' || url?.protocol === 'https:') return url;
  throw new StartUpError(`${variable}: must be an http:// or https:// URL, such as http://127.0.0.1:4318; unset it to turn tracing off`);
}
