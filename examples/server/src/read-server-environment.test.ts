import { readServerEnvironment } from './read-server-environment';
import { StartUpError } from './start-up-error';

describe('readServerEnvironment: SIGNALBOX_SHUTDOWN_GRACE_MS', () => {
  it('gives open requests 10 000 ms after SIGTERM when the variable is unset or empty', () => {
    expect(readServerEnvironment({}).shutdownGraceMs).toBe(10_000);
    expect(readServerEnvironment({ SIGNALBOX_SHUTDOWN_GRACE_MS: '' }).shutdownGraceMs).toBe(10_000);
  });

  it('takes a whole number of milliseconds, 0 included (open requests are ended at once)', () => {
    expect(readServerEnvironment({ SIGNALBOX_SHUTDOWN_GRACE_MS: '30000' }).shutdownGraceMs).toBe(30_000);
    expect(readServerEnvironment({ SIGNALBOX_SHUTDOWN_GRACE_MS: '0' }).shutdownGraceMs).toBe(0);
  });

  it.each(['10s', '-1', '1.5'])('refuses %s with a StartUpError naming the variable and its shape', value => {
    const read = () => readServerEnvironment({ SIGNALBOX_SHUTDOWN_GRACE_MS: value });
    expect(read).toThrow(StartUpError);
    expect(read).toThrow(`SIGNALBOX_SHUTDOWN_GRACE_MS=${value}: must be a whole number of milliseconds (0 ends open requests at once); default 10000`);
  });
});

describe('readServerEnvironment: LOG_LEVEL', () => {
  it('logs from info up when the variable is unset or empty', () => {
    expect(readServerEnvironment({}).logLevel).toBe('info');
    expect(readServerEnvironment({ LOG_LEVEL: '' }).logLevel).toBe('info');
  });

  it('takes any pino level, in any case', () => {
    expect(readServerEnvironment({ LOG_LEVEL: 'debug' }).logLevel).toBe('debug');
    expect(readServerEnvironment({ LOG_LEVEL: ' WARN ' }).logLevel).toBe('warn');
    expect(readServerEnvironment({ LOG_LEVEL: 'silent' }).logLevel).toBe('silent');
  });

  it('refuses an unknown level with a StartUpError naming the variable and the levels', () => {
    const read = () => readServerEnvironment({ LOG_LEVEL: 'verbose' });
    expect(read).toThrow(StartUpError);
    expect(read).toThrow('LOG_LEVEL=verbose: must be one of trace, debug, info, warn, error, fatal, silent (debug adds a line per refused request); default info');
  });
});

describe('readServerEnvironment: SIGNALBOX_TRUST_PROXY', () => {
  it('believes no proxy when unset, empty or false', () => {
    for (const value of [undefined, '', 'false']) expect(readServerEnvironment(value === undefined ? {} : { SIGNALBOX_TRUST_PROXY: value }).trustProxy).toBeUndefined();
  });

  it('takes a hop count, true, or addresses, subnets and names', () => {
    expect(readServerEnvironment({ SIGNALBOX_TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readServerEnvironment({ SIGNALBOX_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(readServerEnvironment({ SIGNALBOX_TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  });

  it('refuses anything else with a StartUpError naming the variable and its shapes', () => {
    expect(() => readServerEnvironment({ SIGNALBOX_TRUST_PROXY: 'proxy;rm' })).toThrow(
      'SIGNALBOX_TRUST_PROXY=proxy;rm: must be a hop count (1), true, or addresses, subnets and names separated by commas (loopback, 10.0.0.0/8)',
    );
  });
});
