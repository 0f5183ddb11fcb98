import type { ClaimGrant, ClaimRule } from './single-sign-on-options';

/** The claims of a person the provider signed in (ID token, then userinfo). */
export type Claims = Readonly<Record<string, unknown>>;

/** The grant of the first rule the claims satisfy, or undefined when none does. */
export function matchClaimRules(rules: readonly ClaimRule[], claims: Claims): ClaimGrant | undefined {
  const rule = rules.find(candidate => ruleHolds(candidate, claims));
  if (!rule) return undefined;
  return rule.role === 'admin' ? { role: 'admin' } : { role: rule.role, accountId: rule.accountId };
}

/** Whether a claim any rule reads is missing from `claims` (then the userinfo endpoint is asked). */
export function missesRuleClaims(rules: readonly ClaimRule[], claims: Claims): boolean {
  return rules.some(rule => claims[rule.claim] === undefined);
}

function ruleHolds(rule: ClaimRule, claims: Claims): boolean {
  const value = claims[rule.claim];
  if ('includes' in rule) return value === rule.includes || (Array.isArray(value) && value.includes(rule.includes));
  if (typeof value !== 'string' || claims.email_verified === false) return false;
  const at = value.lastIndexOf('@');
  return at > 0 && value.slice(at + 1).toLowerCase() === rule.emailDomain.toLowerCase();
}
