import { readConfigFilePanel, resolveSingleSignOn } from './read-config-file-panel';
import { ConfigFileError, StartUpError } from './start-up-error';

const SSO = {
  issuer: 'https://example.okta.com',
  clientId: '0oa1example',
  clientSecretEnv: 'PANEL_SSO_SECRET',
  redirectURL: 'https://gateway.example.com/panel/api/sso/callback',
  scopes: ['openid', 'email', 'groups'],
  rules: [
    { claim: 'groups', includes: 'gateway-admins', role: 'admin' },
    { claim: 'email', emailDomain: 'team-a.example', role: 'viewer', accountId: 'acct_9TeamA01' },
  ],
};

describe('the config file panel section', () => {
  it('reads single sign-on with the client secret from the environment variable it names', () => {
    const panel = readConfigFilePanel('gateway.json', { sso: SSO });
    expect(resolveSingleSignOn(panel, { PANEL_SSO_SECRET: ' s3cret ' })).toEqual({
      issuer: SSO.issuer,
      clientId: SSO.clientId,
      clientSecret: 's3cret',
      redirectURL: SSO.redirectURL,
      scopes: SSO.scopes,
      rules: [
        { claim: 'groups', includes: 'gateway-admins', role: 'admin' },
        { claim: 'email', emailDomain: 'team-a.example', role: 'viewer', accountId: 'acct_9TeamA01' },
      ],
    });
    expect(resolveSingleSignOn(readConfigFilePanel('gateway.json', {}), {})).toBeUndefined();
    expect(resolveSingleSignOn(undefined, {})).toBeUndefined();
  });

  it('stops the start when the client secret variable is not set, naming it', () => {
    const panel = readConfigFilePanel('gateway.json', { sso: SSO });
    expect(() => resolveSingleSignOn(panel, {})).toThrow(StartUpError);
    expect(() => resolveSingleSignOn(panel, { PANEL_SSO_SECRET: '' })).toThrow('panel.sso.clientSecretEnv: PANEL_SSO_SECRET is not set');
  });

  it('names each field at fault: plain HTTP off this machine, another callback path, a secret in the file, rules that cannot work', () => {
    const read = (sso: Record<string, unknown>) => () => readConfigFilePanel('gateway.json', { sso: { ...SSO, ...sso } });
    expect(read({ issuer: 'http://idp.example.com' })).toThrow(ConfigFileError);
    expect(read({ issuer: 'http://idp.example.com' })).toThrow('panel.sso.issuer: must be an https:// URL (http:// only on 127.0.0.1 or localhost)');
    expect(read({ issuer: 'http://127.0.0.1:9000' })).not.toThrow();
    expect(read({ redirectURL: 'https://gateway.example.com/callback' })).toThrow('panel.sso.redirectURL: must end in /panel/api/sso/callback');
    expect(read({ clientSecret: 'in-the-file' })).toThrow('panel.sso: unknown field clientSecret');
    expect(read({ scopes: ['email'] })).toThrow('panel.sso.scopes: must include openid');
    expect(read({ rules: [] })).toThrow('panel.sso.rules: needs at least one rule');
    expect(read({ rules: [{ claim: 'groups', includes: 'x', emailDomain: 'y.example', role: 'admin' }] })).toThrow(
      'panel.sso.rules.0: give exactly one of includes or emailDomain',
    );
    expect(read({ rules: [{ claim: 'groups', includes: 'x', role: 'owner' }] })).toThrow('panel.sso.rules.0: an owner or viewer rule names its accountId');
    expect(read({ rules: [{ claim: 'groups', includes: 'x', role: 'admin', accountId: 'acct_a' }] })).toThrow('an admin rule none');
    expect(read({ rules: [{ claim: 'groups', includes: 'x', role: 'auditor' }] })).toThrow(/panel\.sso\.rules\.0\.role: /);
  });
});
