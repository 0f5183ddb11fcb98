import { readTracingSettings } from './read-tracing-settings';
import { StartUpError } from './start-up-error';

describe('readTracingSettings', () => {
  it('leaves tracing off when neither the environment nor the config file names an endpoint', () => {
    expect(readTracingSettings({ OTEL_SERVICE_NAME: 'gateway' }, undefined)).toBeUndefined();
  });

  it('adds /v1/traces to OTEL_EXPORTER_OTLP_ENDPOINT, as the OTLP exporter specification says', () => {
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, undefined)).toEqual({
      url: 'http://collector:4318/v1/traces',
      serviceName: 'signalbox',
    });
    expect(readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://collector.example/otlp/' }, undefined)?.url).toBe('https://collector.example/otlp/v1/traces');
  });

  it('uses OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as given, over the base endpoint and the config file', () => {
    const settings = readTracingSettings(
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' },
      { endpoint: 'http://file:4318' },
    );
    expect(settings?.url).toBe('http://traces:9999/custom');
  });

  it("takes the config file's endpoint and service name when the environment has none, OTEL_SERVICE_NAME winning over the file", () => {
    expect(readTracingSettings({}, { endpoint: 'http://file:4318', serviceName: 'edge-gateway' })).toEqual({
      url: 'http://file:4318/v1/traces',
      serviceName: 'edge-gateway',
    });
    expect(readTracingSettings({ OTEL_SERVICE_NAME: 'from-env' }, { endpoint: 'http://file:4318/v1/traces', serviceName: 'edge-gateway' })).toEqual({
      url: 'http://file:4318/v1/traces',
      serviceName: 'from-env',
    });
  });

  it('refuses an endpoint that is not an http(s) URL with a start-up error naming the variable', () => {
    expect(() => readTracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317' }, undefined)).toThrow(StartUpError);
    expect(() => readTracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector' }, undefined)).toThrow(
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: must be an http:// or https:// URL, such as http://127.0.0.1:4318; unset it to turn tracing off',
    );
  });
});
