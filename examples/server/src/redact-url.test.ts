import { randomBytes } from 'node:crypto';
import { describeDriverError, redactError, redactURL } from './redact-url';

describe('redact-url', () => {
  const password = randomBytes(9).toString('base64url');
  const url = `postgres://signalbox:${password}@db.internal:5432/gateway`;

  it('takes the URL and its password out of a driver message', () => {
    expect(redactURL(`cannot connect to ${url}`, url)).toBe('cannot connect to <the URL>');
    expect(redactURL(`password authentication failed: ${password}`, url)).toBe('password authentication failed: <password>');
  });

  it('describes a wrapped driver error by its cause, in one line, and keeps its code for the log', () => {
    const cause = Object.assign(new Error(`connect ECONNREFUSED\n  to ${url}`), { code: 'ECONNREFUSED' });
    expect(describeDriverError(new Error('Cannot open the store', { cause }))).toBe(`connect ECONNREFUSED to ${url}`);
    expect(redactError(cause, url)).toEqual({ message: 'connect ECONNREFUSED to <the URL>', code: 'ECONNREFUSED' });
    expect(describeDriverError(Object.assign(new Error(''), { code: 'ETIMEDOUT' }))).toBe('ETIMEDOUT');
  });
});
