import type { AccountStore } from '@signalbox/accounts';
import { GatewayError } from '@signalbox/core';
import { isStoreUnreachable, reportStoreOutages } from './report-store-outages';

const withCode = (code: string, message = 'failure') => Object.assign(new Error(message), { code });

describe('isStoreUnreachable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a reset connection', withCode('ECONNRESET')],
    ['PostgreSQL shutting down (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['PostgreSQL starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['a connection exception (08006)', withCode('08006')],
    ['too many connections (53300)', withCode('53300')],
    ['a connection that ended', new Error('Connection terminated unexpectedly')],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    ['a statement left unanswered', new Error('Query read timeout')],
    ['every address refused', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')],
  ])('is true for %s', (_name, error) => {
    expect(isStoreUnreachable(error)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error (42601)', withCode('42601')],
    ['a plain error', new Error('The PostgreSQL account store is closed.')],
    ['a string', 'ECONNREFUSED'],
  ])('is false for %s', (_name, error) => {
    expect(isStoreUnreachable(error)).toBe(false);
  });
});

describe('reportStoreOutages', () => {
  const store = {
    getAccount: () => Promise.reject(withCode('ECONNREFUSED')),
    listAccounts: () => Promise.reject(withCode('23505')),
    ping: () => Promise.resolve(),
  } as unknown as AccountStore;

  it('turns a store call that cannot reach the database into 503 STORE_UNAVAILABLE, the driver error kept as its cause', async () => {
    const error = await reportStoreOutages(store).getAccount('acct_1').catch((failure: unknown) => failure);
    expect(GatewayError.isInstance(error)).toBe(true);
    const gatewayError = error as GatewayError;
    expect([gatewayError.code, gatewayError.status, gatewayError.retryAfterMs]).toEqual(['STORE_UNAVAILABLE', 503, 1_000]);
    expect(gatewayError.message).toBe('The gateway cannot reach its database, so this request was not served. Retry shortly.');
    expect((gatewayError.cause as { code: string }).code).toBe('ECONNREFUSED');
  });

  it('passes other failures and every result unchanged', async () => {
    const guarded = reportStoreOutages(store);
    await expect(guarded.listAccounts()).rejects.toMatchObject({ code: '23505' });
    await expect(guarded.ping()).resolves.toBeUndefined();
  });
});
