import { GatewayError } from '../errors/gateway-error';
import { gatewayErrorOf, gatewayErrorOfAsync } from './gateway-error-of';

const refusal = new GatewayError({ code: 'INVALID_REQUEST', message: 'Invalid request: model: Field required.', param: 'model' });
const bug = new TypeError('not a refusal');

describe('gatewayErrorOf', () => {
  it('returns the very GatewayError the call throws', () => {
    expect(gatewayErrorOf(() => { throw refusal; })).toBe(refusal);
  });

  it('rethrows anything else the call throws', () => {
    expect(() => gatewayErrorOf(() => { throw bug; })).toThrow(bug);
  });

  it('fails when the call succeeds', () => {
    expect(() => gatewayErrorOf(() => 'answer')).toThrow('expected a GatewayError, but the call succeeded');
  });
});

describe('gatewayErrorOfAsync', () => {
  it('returns the GatewayError the call rejects with or throws synchronously', async () => {
    await expect(gatewayErrorOfAsync(() => Promise.reject(refusal))).resolves.toBe(refusal);
    await expect(gatewayErrorOfAsync(() => { throw refusal; })).resolves.toBe(refusal);
  });

  it('rethrows any other rejection', async () => {
    await expect(gatewayErrorOfAsync(() => Promise.reject(bug))).rejects.toBe(bug);
  });

  it('fails when the call resolves', async () => {
    await expect(gatewayErrorOfAsync(() => Promise.resolve('answer'))).rejects.toThrow('expected a GatewayError, but the call succeeded');
  });
});
