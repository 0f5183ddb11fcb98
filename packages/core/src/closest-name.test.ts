import { closestName } from './closest-name';

describe('closestName', () => {
  const keys = ['baseURL', 'apiKeyEnv', 'timeoutMs', 'protocol', 'headers'];

  it('names the known name a mistyped one stands for: a case slip, a typo, a missing suffix', () => {
    expect(closestName('baseUrl', keys)).toBe('baseURL');
    expect(closestName('BASEURL', keys)).toBe('baseURL');
    expect(closestName('apiKeyEnvv', keys)).toBe('apiKeyEnv');
    expect(closestName('protocl', keys)).toBe('protocol');
    expect(closestName('timeout', keys)).toBe('timeoutMs');
  });

  it('names nothing for a name far from every known one, or a short start', () => {
    expect(closestName('retries', keys)).toBeUndefined();
    expect(closestName('ti', keys)).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });

  it('prefers the nearest of several candidates', () => {
    expect(closestName('heders', ['headers', 'header'])).toBe('headers');
  });
});
