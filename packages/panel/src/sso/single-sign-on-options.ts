/** Which claim a rule reads and what it must hold. */
export type ClaimMatch =
  /** The claim is this string, or a list holding it (`groups` contains `gateway-admins`). */
  | { claim: string; includes: string }
  /** The claim is an email address at this domain, compared without case; never when `email_verified` is `false`. */
  | { claim: string; emailDomain: string };

/** What a matched person becomes: the admin, or an owner or viewer of one account. */
export type ClaimGrant = { role: 'admin' } | { role: 'owner' | 'viewer'; accountId: string };

/** One line of the claim mapping: the first rule whose match holds decides the role. */
export type ClaimRule = ClaimMatch & ClaimGrant;

export type SingleSignOnOptions = {
  /** The OpenID Connect issuer (its discovery document is `<issuer>/.well-known/openid-configuration`). HTTPS, or HTTP on a loopback address. */
  issuer: string;
  clientId: string;
  /** The client secret's value (the host reads it from an environment variable); sent with HTTP Basic authentication. */
  clientSecret: string;
  /** Where the provider sends the browser back: the panel's `/api/sso/callback` as browsers reach it, registered with the provider. */
  redirectURL: string;
  /** Default `openid email profile`; add the provider's scope for groups when a rule reads them. */
  scopes?: readonly string[];
  /** The claim mapping, in order; a person no rule matches is refused and gets no session. */
  rules: readonly ClaimRule[];
  /** The provider's name on the login page's button. Default "single sign-on". */
  providerName?: string;
  /** How long a started login may take at the provider. Default 10 minutes. */
  pendingLoginTtlMs?: number;
  /** At most this many logins in progress at once. Default 10,000. */
  maxPendingLogins?: number;
  /** The time limit of each request to the provider. Default 10 seconds. */
  timeoutMs?: number;
};
