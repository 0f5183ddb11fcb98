import { GatewayError, type Protocol } from '@switchyard/core';
import { looksLikeAdminToken, type Account, type AccountStore, type ApiKeyRecord } from '@switchyard/accounts';

export type RequestHeaders = Record<string, string | string[] | undefined>;

/** Who is calling: the key, its account, and for Messages the API version the client spoke. */
export type Principal = { key: ApiKeyRecord; account: Account; apiVersion?: string };

export type MessagesAuthPolicy = { acceptedVersions: readonly string[]; acceptBearer: boolean };

/**
 * Checks the credentials of one request on one interface. Responses and Chat take
 * `Authorization: Bearer`; Messages takes `x-api-key` plus `anthropic-version` (alias
 * `provider-version`). Throws the taxonomy's 400 / 401 / 403 `GatewayError`s: a missing, invalid or
 * disabled key is 401; an expired key or an inactive subscription is 403.
 */
export async function authenticate(options: {
  protocol: Protocol;
  headers: RequestHeaders;
  store: AccountStore;
  messages: MessagesAuthPolicy;
  now?: number;
}): Promise<Principal> {
  const { protocol, headers, store } = options;
  const isMessages = protocol === 'anthropic-messages';
  const secret = isMessages ? messagesKey(headers, options.messages) : bearerKey(headers);
  const apiVersion = isMessages ? checkVersion(headers, options.messages) : undefined;
  if (looksLikeAdminToken(secret)) {
    throw new GatewayError({
      code: 'API_KEY_INVALID',
      message: 'A console (admin) token is not an API key. Create an API key in the account panel and send that.',
    });
  }
  const key = await store.findKeyBySecret(secret);
  if (!key) throw new GatewayError({ code: 'API_KEY_INVALID', message: 'The API key is not valid.' });
  if (key.status === 'disabled') throw new GatewayError({ code: 'API_KEY_DISABLED', message: 'The API key is disabled.' });
  if (key.expiresAt !== undefined && key.expiresAt <= (options.now ?? Date.now())) {
    throw new GatewayError({ code: 'API_KEY_EXPIRED', message: 'The API key has expired; create a new one in the account panel.' });
  }
  const account = await store.getAccount(key.accountId);
  if (!account) throw new GatewayError({ code: 'API_KEY_INVALID', message: 'The API key is not valid.' });
  if (account.subscription !== 'active') {
    throw new GatewayError({ code: 'SUBSCRIPTION_INACTIVE', message: 'The subscription of this account is not active.' });
  }
  return apiVersion === undefined ? { key, account } : { key, account, apiVersion };
}

function header(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function bearerToken(headers: RequestHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, 'authorization') ?? '');
  return match?.[1];
}

function bearerKey(headers: RequestHeaders): string {
  const token = bearerToken(headers);
  if (token) return token;
  const hint = header(headers, 'x-api-key') ? ' `x-api-key` is only read on /v1/messages.' : '';
  throw new GatewayError({
    code: 'API_KEY_MISSING',
    message: `Missing API key: send it as \`Authorization: Bearer <API_KEY>\`.${hint}`,
  });
}

function messagesKey(headers: RequestHeaders, policy: MessagesAuthPolicy): string {
  const key = header(headers, 'x-api-key')?.trim();
  if (key) return key;
  const token = bearerToken(headers);
  if (token && policy.acceptBearer) return token;
  const why = token ? ' `Authorization: Bearer` is not accepted on this endpoint.' : '';
  throw new GatewayError({
    code: 'API_KEY_MISSING',
    message: `Missing API key: send it in the \`x-api-key\` header.${why}`,
  });
}

function checkVersion(headers: RequestHeaders, policy: MessagesAuthPolicy): string {
  const version = header(headers, 'anthropic-version') ?? header(headers, 'provider-version');
  if (version === undefined || version.trim() === '') {
    throw new GatewayError({ code: 'VERSION_HEADER_MISSING', message: 'anthropic-version: header is required' });
  }
  if (!policy.acceptedVersions.includes(version)) {
    throw new GatewayError({
      code: 'VERSION_HEADER_INVALID',
      // The value is not echoed: a misplaced credential must never come back in an error body.
      message: `anthropic-version: the value sent is not a valid version; send ${policy.acceptedVersions.map(accepted => `"${accepted}"`).join(' or ')}`,
    });
  }
  return version;
}
