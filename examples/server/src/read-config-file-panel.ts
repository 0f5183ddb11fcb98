import type { SingleSignOnOptions } from '@signalbox/panel';
import { z } from 'zod';
import { readConfigFileSection } from './read-config-file-section';
import { StartUpError } from './start-up-error';

/** Where the example server mounts the panel's single sign-on callback. */
export const SSO_CALLBACK_PATH = '/panel/api/sso/callback';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** An HTTPS URL, or an HTTP one on this machine (a provider or gateway tried out locally). */
const secureURL = z
  .url({ protocol: /^https?$/, error: 'must be an https:// URL' })
  .refine(text => new URL(text).protocol === 'https:' || LOOPBACK.has(new URL(text).hostname), 'must be an https:// URL (http:// only on 127.0.0.1 or localhost)');

const claimRule = z
  .strictObject({
    /** The claim read: `groups`, `email`, `hd`, … */
    claim: z.string().trim().min(1, 'must name a claim').max(200),
    includes: z.string().min(1).max(500).optional(),
    emailDomain: z.string().regex(/^[A-Za-z0-9.-]+\.[A-Za-z]{2,}$/, 'must be a domain such as example.com').optional(),
    role: z.enum(['admin', 'owner', 'viewer']),
    accountId: z.string().regex(/^acct_[A-Za-z0-9]+$/, 'must be an account id (acct_…)').optional(),
  })
  .refine(rule => (rule.includes === undefined) !== (rule.emailDomain === undefined), 'give exactly one of includes or emailDomain')
  .refine(rule => (rule.role === 'admin') === (rule.accountId === undefined), 'an owner or viewer rule names its accountId; an admin rule none');

const ssoSection = z.strictObject({
  issuer: secureURL,
  clientId: z.string().trim().min(1, 'must not be empty').max(500),
  /** The environment variable holding the client secret: never the secret in the file. */
  clientSecretEnv: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name'),
  redirectURL: secureURL.refine(text => new URL(text).pathname === SSO_CALLBACK_PATH, `must end in ${SSO_CALLBACK_PATH}, the panel's callback`),
  scopes: z.array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'must be a scope name')).refine(scopes => scopes.includes('openid'), 'must include openid').optional(),
  providerName: z.string().trim().min(1).max(60).optional(),
  rules: z.array(claimRule).min(1, 'needs at least one rule: nobody could log in'),
});

const panelSection = z.strictObject({ sso: ssoSection.optional() });

/** The config file's `panel` section: the example server's, taken out before the gateway config is parsed. */
export type ConfigFilePanel = z.infer<typeof panelSection>;

/** Validates the config file's `panel` section (absent: `undefined`); a problem names the file and the path at fault. */
export function readConfigFilePanel(path: string, section: unknown): ConfigFilePanel | undefined {
  return readConfigFileSection(path, 'panel', panelSection, section);
}

/** The panel's single sign-on with its client secret read from the environment; a missing secret stops the start. */
export function resolveSingleSignOn(panel: ConfigFilePanel | undefined, environment: NodeJS.ProcessEnv): SingleSignOnOptions | undefined {
  const sso = panel?.sso;
  if (!sso) return undefined;
  const clientSecret = environment[sso.clientSecretEnv]?.trim();
  if (!clientSecret) throw new StartUpError(`panel.sso.clientSecretEnv: ${sso.clientSecretEnv} is not set; set it to the client secret the identity provider issued`);
  const { clientSecretEnv: _name, rules, ...rest } = sso;
  return { ...rest, clientSecret, rules: rules.map(toClaimRule) };
}

function toClaimRule(rule: z.infer<typeof claimRule>): SingleSignOnOptions['rules'][number] {
  const match = rule.includes !== undefined ? { claim: rule.claim, includes: rule.includes } : { claim: rule.claim, emailDomain: rule.emailDomain! };
  return rule.role === 'admin' ? { ...match, role: 'admin' } : { ...match, role: rule.role, accountId: rule.accountId! };
}
