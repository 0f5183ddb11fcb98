import { chooseMetricsSettings, readConfigFileMetrics, readMetricsEnvironment } from './read-metrics-settings';
import { ConfigFileError, StartUpError } from './start-up-error';

describe('the example server metrics settings', () => {
  it('serves metrics on the main port by default', () => {
    expect(chooseMetricsSettings(undefined, readMetricsEnvironment({}))).toEqual({ enabled: true });
  });

  it('lays the environment over the config file, field by field', () => {
    const file = readConfigFileMetrics('gateway.yaml', { host: '10.0.0.5', port: 9464 });
    expect(chooseMetricsSettings(file, readMetricsEnvironment({ SIGNALBOX_METRICS_PORT: '9100' }))).toEqual({ enabled: true, host: '10.0.0.5', port: 9100 });
    expect(chooseMetricsSettings(file, readMetricsEnvironment({ SIGNALBOX_METRICS: 'off' }))).toMatchObject({ enabled: false });
    expect(chooseMetricsSettings({ enabled: false }, readMetricsEnvironment({ SIGNALBOX_METRICS: 'ON' }))).toEqual({ enabled: true });
  });

  it('refuses a bad switch, port or host in one line naming the variable', () => {
    expect(() => readMetricsEnvironment({ SIGNALBOX_METRICS: 'maybe' })).toThrow(new StartUpError('SIGNALBOX_METRICS=maybe: must be off (no /metrics) or on; default on'));
    expect(() => readMetricsEnvironment({ SIGNALBOX_METRICS_PORT: '70000' })).toThrow(/^SIGNALBOX_METRICS_PORT=70000: must be a port number/);
    expect(() => readMetricsEnvironment({ SIGNALBOX_METRICS_HOST: 'a host;' })).toThrow(/^SIGNALBOX_METRICS_HOST=a host;: must be an IP address or host name/);
    expect(() => chooseMetricsSettings(undefined, readMetricsEnvironment({ SIGNALBOX_METRICS_HOST: '0.0.0.0' }))).toThrow(/needs SIGNALBOX_METRICS_PORT/);
  });

  it('refuses a config file section with unknown fields or a host without a port, naming the paths', () => {
    const read = (section: unknown) => () => readConfigFileMetrics('gateway.json', section);
    expect(read({ enabled: 'yes' })).toThrow(ConfigFileError);
    expect(read({ enabled: 'yes' })).toThrow(/metrics\.enabled: /);
    expect(read({ host: '127.0.0.1' })).toThrow(/metrics: a host needs a port/);
    expect(read({ path: '/m' })).toThrow(/metrics: /);
  });
});
