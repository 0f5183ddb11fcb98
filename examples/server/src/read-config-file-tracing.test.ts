import { readConfigFileTracing } from './read-config-file-tracing';
import { ConfigFileError } from './start-up-error';

describe('readConfigFileTracing', () => {
  it('returns nothing for a file without a tracing section, and the section when it is well formed', () => {
    expect(readConfigFileTracing('gateway.json', undefined)).toBeUndefined();
    expect(readConfigFileTracing('gateway.json', { endpoint: 'http://collector:4318', serviceName: 'edge' })).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'edge',
    });
  });

  it('names the file and each field at fault: an endpoint that is not an http(s) URL, an unknown field', () => {
    const read = () => readConfigFileTracing('gateway.json', { endpoint: 'grpc://collector:4317', sampler: 'always' });
    expect(read).toThrow(ConfigFileError);
    expect(read).toThrow(
      'gateway.json: tracing.endpoint: must be an http:// or https:// URL, such as http://127.0.0.1:4318; tracing: unknown field sampler',
    );
  });

  it('refuses a section without an endpoint or with an empty service name', () => {
    expect(() => readConfigFileTracing('gateway.yaml', { serviceName: '' })).toThrow(/^gateway\.yaml: .*tracing\.endpoint: /);
    expect(() => readConfigFileTracing('gateway.yaml', { endpoint: 'http://collector:4318', serviceName: ' ' })).toThrow(
      'gateway.yaml: tracing.serviceName: must not be empty',
    );
  });
});
