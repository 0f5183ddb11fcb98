import { GatewayError } from '@signalbox/core';
import { checkCsrf, type CsrfCheckInput } from './check-csrf';

const expectedOrigin = 'https://gateway.example';
const refusal = (input: CsrfCheckInput) => {
  try {
    checkCsrf(input);
    return undefined;
  } catch (error) {
    return GatewayError.isInstance(error) ? [error.status, error.code] : error;
  }
};

describe('checkCsrf', () => {
  it('accepts a same-origin change carrying the session token', () => {
    expect(
      refusal({
        origin: expectedOrigin,
        fetchSite: 'same-origin',
        expectedOrigin,
        sentToken: 'token-1',
        sessionToken: 'token-1',
      }),
    ).toBeUndefined();
  });

  it('accepts a login (no session yet) from the same origin, and from a client that sends neither header', () => {
    expect(refusal({ origin: expectedOrigin, fetchSite: 'same-origin', expectedOrigin })).toBeUndefined();
    expect(refusal({ origin: undefined, fetchSite: undefined, expectedOrigin })).toBeUndefined();
  });

  it.each([
    ['another origin', { origin: 'https://attacker.example', fetchSite: undefined }],
    ['the same host over plain HTTP', { origin: 'http://gateway.example', fetchSite: undefined }],
    ['a cross-site fetch', { origin: undefined, fetchSite: 'cross-site' }],
    ['a same-site (other subdomain) fetch', { origin: undefined, fetchSite: 'same-site' }],
  ])('refuses %s with 403, token or not', (_name, headers) => {
    expect(refusal({ ...headers, expectedOrigin, sentToken: 'token-1', sessionToken: 'token-1' })).toEqual([
      403,
      'PANEL_REQUEST_FORBIDDEN',
    ]);
    expect(refusal({ ...headers, expectedOrigin })).toEqual([403, 'PANEL_REQUEST_FORBIDDEN']);
  });

  it.each([
    ['no token', undefined],
    ['an empty token', ''],
    ['a different token', 'token-2'],
    ['a longer token with the right start', 'token-1-and-more'],
  ])('refuses a change with %s once a session exists', (_name, sentToken) => {
    expect(
      refusal({
        origin: expectedOrigin,
        fetchSite: 'same-origin',
        expectedOrigin,
        sentToken,
        sessionToken: 'token-1',
      }),
    ).toEqual([403, 'PANEL_REQUEST_FORBIDDEN']);
  });
});
