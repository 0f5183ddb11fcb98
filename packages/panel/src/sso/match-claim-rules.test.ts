import { matchClaimRules, missesRuleClaims } from './match-claim-rules';
import type { ClaimRule } from './single-sign-on-options';

const RULES: ClaimRule[] = [
  { claim: 'groups', includes: 'gateway-admins', role: 'admin' },
  { claim: 'groups', includes: 'team-a-viewers', role: 'viewer', accountId: 'acct_a' },
  { claim: 'email', emailDomain: 'Team-B.example', role: 'owner', accountId: 'acct_b' },
  { claim: 'hd', includes: 'team-c.example', role: 'viewer', accountId: 'acct_c' },
];

describe('matchClaimRules', () => {
  it('gives the first matching rule its role: a group in a list, an email domain without case, a string claim', () => {
    expect(matchClaimRules(RULES, { sub: '1', groups: ['others', 'gateway-admins', 'team-a-viewers'] })).toEqual({ role: 'admin' });
    expect(matchClaimRules(RULES, { sub: '2', groups: ['team-a-viewers'] })).toEqual({ role: 'viewer', accountId: 'acct_a' });
    expect(matchClaimRules(RULES, { sub: '3', email: 'dave@TEAM-b.example', email_verified: true })).toEqual({ role: 'owner', accountId: 'acct_b' });
    expect(matchClaimRules(RULES, { sub: '4', hd: 'team-c.example' })).toEqual({ role: 'viewer', accountId: 'acct_c' });
  });

  it('matches nobody on a near miss: a sub-domain, a domain in the local part, an unverified email, a group name as a substring', () => {
    expect(matchClaimRules(RULES, { sub: '5', email: 'eve@evil.team-b.example' })).toBeUndefined();
    expect(matchClaimRules(RULES, { sub: '6', email: 'team-b.example@evil.example' })).toBeUndefined();
    expect(matchClaimRules(RULES, { sub: '7', email: 'erin@team-b.example', email_verified: false })).toBeUndefined();
    expect(matchClaimRules(RULES, { sub: '8', groups: 'not-gateway-admins' })).toBeUndefined();
    expect(matchClaimRules(RULES, { sub: '9', groups: [['gateway-admins']] })).toBeUndefined();
    expect(matchClaimRules(RULES, { sub: '10' })).toBeUndefined();
  });

  it('asks for userinfo only when a claim some rule reads is missing', () => {
    expect(missesRuleClaims(RULES, { sub: '1', groups: [], email: 'a@b.example', hd: 'b.example' })).toBe(false);
    expect(missesRuleClaims(RULES, { sub: '1', email: 'a@b.example', hd: 'b.example' })).toBe(true);
  });
});
