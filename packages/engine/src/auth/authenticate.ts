import {
  boundClientText,
  GatewayError,
  type CredentialScheme,
  headerValue,
  type HeaderMap,
  type ProtocolDescriptor,
  type VersionHeader,
} from '@signalbox/core';
import { looksLikeAdminToken, looksLikeConsoleToken, type Account, type AccountStore, type ApiKeyRecord } from '@signalbox/accounts';

export type RequestHeaders = HeaderMap;

/** Who is calling: the key and its account. */
export type Principal = { key: ApiKeyRecord; account: Account };

/** What an interface accepts from clients beyond its descriptor's defaults (host config). */
export type ClientAuthPolicy = { acceptedVersions: readonly string[]; acceptBearer: boolean };

/** A key header another interface reads, for the hint to a caller who sent it to the wrong one. */
export type KeyHeaderElsewhere = { header: string; path: string };

export type AuthenticateOptions = {
  descriptor: ProtocolDescriptor;
  headers: RequestHeaders;
  /** The request's parsed query string: a protocol's clients may send the key there (`credential.queryParameter`). */
  query?: Readonly<Record<string, unknown>>;
  store: AccountStore;
  policy: ClientAuthPolicy;
  now: number;
  /** Key headers of the gateway's other interfaces (a Bearer caller who sent one gets told where it is read). */
  keyHeadersElsewhere?: readonly KeyHeaderElsewhere[];
  /** Where the gateway is mounted (`/llm`): the start of the paths a refusal names. */
  mountPath?: string;
};

/**
 * Checks one request's credentials with its interface's own scheme (the codec's descriptor):
 * `Authorization: Bearer`, or the protocol's key header plus its version header. Returns the
 * caller and the protocol version the client declared, which decides how its body is decoded.
 * Throws the 400 / 401 / 403 `GatewayError`s: a missing, invalid or disabled key is 401; an
 * expired key or an inactive subscription is 403.
 */
export async function authenticate(
  options: AuthenticateOptions,
): Promise<{ principal: Principal; apiVersion?: string; accountConfirmed?: Promise<void> }> {
  const { descriptor, headers, store } = options;
  const secret =
    descriptor.credential.kind === 'bearer'
      ? bearerKey(headers, options.keyHeadersElsewhere ?? [], options.mountPath ?? '')
      : headerKey(headers, descriptor.credential, options.policy, options.query);
  const apiVersion = descriptor.version ? checkVersion(headers, descriptor.version, options.policy) : undefined;
  if (looksLikeAdminToken(secret) || looksLikeConsoleToken(secret)) {
    throw new GatewayError({
      code: 'API_KEY_INVALID',
      message: 'A console token is not an API key. Create an API key in the account panel and send that.',
    });
  }
  const key = await store.findKeyBySecret(secret);
  if (!key) throw new GatewayError({ code: 'API_KEY_INVALID', message: 'The API key is not valid.' });
  if (key.status === 'disabled') throw new GatewayError({ code: 'API_KEY_DISABLED', message: 'The API key is disabled.' });
  if (key.expiresAt !== undefined && key.expiresAt <= options.now) {
    throw new GatewayError({ code: 'API_KEY_EXPIRED', message: 'The API key has expired; create a new one in the account panel.' });
  }
  const { account, confirmed } = await readAccount(store, key.accountId);
  return { principal: { key, account: refuseAccount(account) }, ...(apiVersion !== undefined && { apiVersion }), ...(confirmed && { accountConfirmed: confirmed }) };
}

/**
 * The key's account. From a store that keeps accounts for requests (`getAccountForRequest`), the
 * kept one, its current row read meanwhile (`confirmAccountForRequest`, shared by the account's
 * overlapping requests, where the store has it): `confirmed` settles once that row was read and
 * still lets the key in, so a request waits on the database alongside its admission, not before it.
 */
async function readAccount(store: AccountStore, accountId: string): Promise<{ account: Account | undefined; confirmed?: Promise<void> }> {
  if (!store.getAccountForRequest) return { account: await store.getAccount(accountId) };
  const current = store.confirmAccountForRequest ? store.confirmAccountForRequest(accountId) : store.getAccount(accountId);
  const confirmed = current.then(found => void refuseAccount(found));
  // Awaited by the request's generation; a request refused before it must not leave it unhandled.
  confirmed.catch(() => undefined);
  return { account: await store.getAccountForRequest(accountId), confirmed };
}

function refuseAccount(account: Account | undefined): Account {
  if (!account) throw new GatewayError({ code: 'API_KEY_INVALID', message: 'The API key is not valid.' });
  if (account.subscription !== 'active') {
    throw new GatewayError({ code: 'SUBSCRIPTION_INACTIVE', message: 'The subscription of this account is not active.' });
  }
  return account;
}

function bearerToken(headers: RequestHeaders): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(headers, 'authorization') ?? '');
  return match?.[1];
}

function bearerKey(headers: RequestHeaders, elsewhere: readonly KeyHeaderElsewhere[], mountPath: string): string {
  const token = bearerToken(headers);
  if (token) return token;
  const misplaced = elsewhere.find(other => headerValue(headers, other.header) !== undefined);
  // A mount path with parameters holds client text.
  const hint = misplaced ? ` \`${misplaced.header}\` is only read on ${boundClientText(mountPath)}${misplaced.path}.` : '';
  throw new GatewayError({
    code: 'API_KEY_MISSING',
    message: `Missing API key: send it as \`Authorization: Bearer <API_KEY>\`.${hint}`,
  });
}

function headerKey(
  headers: RequestHeaders,
  scheme: Extract<CredentialScheme, { kind: 'header' }>,
  policy: ClientAuthPolicy,
  query: Readonly<Record<string, unknown>> = {},
): string {
  const { header: name, bearerRefusedHint, queryParameter } = scheme;
  const key = headerValue(headers, name)?.trim();
  if (key) return key;
  const inQuery = queryParameter === undefined ? undefined : query[queryParameter];
  if (typeof inQuery === 'string' && inQuery.trim() !== '') return inQuery.trim();
  const token = bearerToken(headers);
  if (token && policy.acceptBearer) return token;
  const orQuery = queryParameter === undefined ? '' : ` or the \`${queryParameter}\` query parameter`;
  throw new GatewayError({
    code: 'API_KEY_MISSING',
    message: `Missing API key: send it in the \`${name}\` header${orQuery}.${token ? ` ${bearerRefusedHint}` : ''}`,
  });
}

function checkVersion(headers: RequestHeaders, version: VersionHeader, policy: ClientAuthPolicy): string {
  const sent = [version.header, ...version.aliases].map(name => headerValue(headers, name)).find(value => value !== undefined);
  if (sent === undefined || sent.trim() === '') {
    throw new GatewayError({ code: 'VERSION_HEADER_MISSING', message: `${version.header}: header is required` });
  }
  if (!policy.acceptedVersions.includes(sent)) {
    throw new GatewayError({
      code: 'VERSION_HEADER_INVALID',
      // The value is not echoed: a misplaced credential must never come back in an error body.
      message: `${version.header}: the value sent is not a valid version; send ${policy.acceptedVersions.map(accepted => `"${accepted}"`).join(' or ')}`,
    });
  }
  return sent;
}
