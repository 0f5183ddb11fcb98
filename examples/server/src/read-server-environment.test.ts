import { readServerEnvironment } from './read-server-environment';
import { StartUpError } from './start-up-error';

describe('readServerEnvironment: SWITCHYARD_SHUTDOWN_GRACE_MS', () => {
  it('gives open requests 10 000 ms after SIGTERM when the variable is unset or empty', () => {
    expect(readServerEnvironment({}).shutdownGraceMs).toBe(10_000);
    expect(readServerEnvironment({ SWITCHYARD_SHUTDOWN_GRACE_MS: '' }).shutdownGraceMs).toBe(10_000);
  });

  it('takes a whole number of milliseconds, 0 included (open requests are ended at once)', () => {
    expect(readServerEnvironment({ SWITCHYARD_SHUTDOWN_GRACE_MS: '30000' }).shutdownGraceMs).toBe(30_000);
    expect(readServerEnvironment({ SWITCHYARD_SHUTDOWN_GRACE_MS: '0' }).shutdownGraceMs).toBe(0);
  });

  it.each(['10s', '-1', '1.5'])('refuses %s with a StartUpError naming the variable and its shape', value => {
    const read = () => readServerEnvironment({ SWITCHYARD_SHUTDOWN_GRACE_MS: value });
    expect(read).toThrow(StartUpError);
    expect(read).toThrow(`SWITCHYARD_SHUTDOWN_GRACE_MS=${value}: must be a whole number of milliseconds (0 ends open requests at once); default 10000`);
  });
});
