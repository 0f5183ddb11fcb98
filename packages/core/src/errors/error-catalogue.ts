import type { GatewayErrorCode } from './error-codes';

/** What a service code means and what the caller should do: the source of the error catalogue in the docs. */
export type CatalogueEntry = { meaning: string; action: string };

const FIX_REQUEST = 'Correct the request; never replay it unchanged.';
const FIX_AUTH = 'Fix authentication; retry only after that.';
const AFTER_CAUSE = 'Retry only after the cause changes.';
const FIX_ENDPOINT = 'Correct the endpoint or model; never replay unchanged.';
const SLOW_DOWN = 'Lower rate and concurrency; honour `Retry-After`; a bounded retry is allowed.';
const TRANSIENT = 'Limited retries only within an explicit duplicate-risk policy (the request may have been billed).';

export const ERROR_CATALOGUE: Record<GatewayErrorCode, CatalogueEntry> = {
  INVALID_REQUEST: { meaning: 'The body does not match the interface (the message names the field path).', action: FIX_REQUEST },
  INVALID_JSON: { meaning: 'The body is not valid JSON, or not sent as `application/json`.', action: FIX_REQUEST },
  UNSUPPORTED_PARAMETER: { meaning: 'A field the route or its upstream cannot serve (named in `param`).', action: FIX_REQUEST },
  VERSION_HEADER_MISSING: { meaning: 'A Messages request without `anthropic-version` (or `provider-version`).', action: FIX_REQUEST },
  VERSION_HEADER_INVALID: { meaning: 'A Messages version header with a value the gateway does not accept.', action: FIX_REQUEST },
  INTERFACE_NOT_SUPPORTED: { meaning: 'The model exists but not on this interface (the message names the right endpoint).', action: FIX_ENDPOINT },
  API_KEY_MISSING: { meaning: 'No key in the interface\'s header (Bearer for Responses/Chat, `x-api-key` for Messages).', action: FIX_AUTH },
  API_KEY_INVALID: { meaning: 'The key is unknown, or a console token was sent instead of an API key.', action: FIX_AUTH },
  API_KEY_DISABLED: { meaning: 'The key was disabled in the account panel.', action: FIX_AUTH },
  API_KEY_EXPIRED: { meaning: 'The key is past its expiry.', action: AFTER_CAUSE },
  MODEL_NOT_ALLOWED: { meaning: 'The key\'s model list does not include this model.', action: AFTER_CAUSE },
  GROUP_NOT_ALLOWED: { meaning: 'The route is limited to groups the key\'s group is not in.', action: AFTER_CAUSE },
  SUBSCRIPTION_INACTIVE: { meaning: 'The account\'s subscription is not active.', action: AFTER_CAUSE },
  INSUFFICIENT_BALANCE: { meaning: 'The balance cannot cover the most this request may cost.', action: AFTER_CAUSE },
  ADMIN_TOKEN_MISSING: { meaning: 'An admin API call without a console token.', action: FIX_AUTH },
  ADMIN_TOKEN_INVALID: { meaning: 'The console token is wrong, disabled or expired (an API key is not a console token).', action: FIX_AUTH },
  ADMIN_TOKEN_REQUIRED: {
    meaning: 'An account\'s console token asked for what only the admin token may do: accounts, balances, upstreams, another account\'s records, or on its keys a group, a model its account may not use, limits above its ceiling, enabling a key the operator disabled (`param` names the field).',
    action: FIX_AUTH,
  },
  CONSOLE_ROLE_FORBIDDEN: {
    meaning: 'An account\'s viewer console token asked to change something (keys, console tokens, budgets) or to read the audit log: a viewer only reads its account.',
    action: 'Use an owner\'s console token or the admin token; never replay it unchanged.',
  },
  PANEL_SESSION_MISSING: { meaning: 'A panel data request without a live session: never logged in, logged out, or the session expired.', action: 'Log in to the panel again with a console token.' },
  PANEL_REQUEST_FORBIDDEN: { meaning: 'A panel request that changes something came without the session\'s CSRF token, or from another origin.', action: 'Send it from the panel page itself (it adds the `x-csrf-token` header); never replay it unchanged.' },
  SSO_LOGIN_FAILED: {
    meaning: 'A panel single sign-on callback that belongs to no login this browser started (unknown or expired, `state` or `nonce` not the ones sent), an error the identity provider answered, or a code it would not exchange; no session was opened.',
    action: 'Start the login again from the panel\'s login page.',
  },
  SSO_REFUSED: {
    meaning: 'A person the identity provider signed in whose claims no rule of the panel\'s `sso.rules` maps to a role; no session was opened.',
    action: 'Ask the operator to map one of your claims (a group, your email domain) to a role.',
  },
  ENDPOINT_NOT_FOUND: { meaning: 'No such path or method; a duplicated or missing `/v1` is named in the message.', action: FIX_ENDPOINT },
  RESOURCE_NOT_FOUND: { meaning: 'No such admin account, key, console token or config version (another account\'s answers the same), or no stored response or item with that id for the caller\'s account (unknown, expired or deleted).', action: FIX_REQUEST },
  MODEL_NOT_FOUND: { meaning: 'No route has this exact model ID (see `GET /v1/models`).', action: FIX_ENDPOINT },
  KEY_LIMITS_ABOVE_CEILING: {
    meaning: 'An account\'s `keyLimitCeiling` lowered below the limits one of its keys has (the message names the key, `param` the member); nothing was changed.',
    action: 'Lower that key\'s limits first, or choose a higher ceiling.',
  },
  CONFIG_READ_ONLY: {
    meaning: 'A change to the routes, upstreams or prices through the admin API or the panel, on a gateway whose config file is its only source (`config.source: "file"`); nothing was changed.',
    action: 'Change the config file and restart, or set `config.source` to `"store"` to manage the config live.',
  },
  CONFIG_VERSION_CONFLICT: {
    meaning: 'A config change sent with a `baseVersion` that is no longer the newest: someone else changed the config first; nothing was changed.',
    action: 'Read the config again, apply the change to the newest version, and send it with that version as `baseVersion`.',
  },
  REQUEST_TIMEOUT: { meaning: 'The request did not arrive in full in time: its body within `bodyTimeoutMs`, or the whole request within the server\'s `requestTimeout`; nothing was generated.', action: 'Send the whole body promptly; a retry of the same request is safe.' },
  REQUEST_TOO_LARGE: { meaning: 'The body is over the size limit (by `Content-Length` or while reading), or the stored conversation state it names (a `previous_response_id` chain, item references, compaction items) would expand it past the expansion limit; nothing was sent upstream.', action: 'Reduce the prompt or attachments, reference fewer stored items, or compact the conversation, then retry the smaller request.' },
  UNSUPPORTED_CONTENT_ENCODING: { meaning: 'The body\'s `Content-Encoding` is not one the gateway decodes (`gzip`, `deflate`, `br`, `zstd`, or none).', action: 'Send the body uncompressed or in one of those encodings.' },
  WEBSOCKET_NOT_SUPPORTED: { meaning: 'A WebSocket upgrade on a generation endpoint whose host did not attach the WebSocket mode (or whose protocol has none: Messages, Chat), or a `response.create` frame naming a route with `webSocket: false`.', action: 'Send the request over HTTP (`POST`, with `stream: true` to stream); never retry the upgrade or the frame.' },
  WEBSOCKET_RESPONSE_IN_PROGRESS: { meaning: 'A `response.create` on a WebSocket while the connection\'s previous response is still streaming: one response at a time per connection.', action: 'Wait for the previous response\'s terminal event, or open another connection.' },
  WEBSOCKET_CONNECTION_LIMIT_REACHED: { meaning: 'The WebSocket connection reached its time limit (60 minutes) and is closed after this frame.', action: 'Open a new connection and continue there (with `previous_response_id` of a stored response, or the whole input).' },
  WEBSOCKET_SOCKETS_LIMITED: { meaning: 'The key, or the gateway, has as many WebSocket connections open as it allows; the new one is closed (close code 1013).', action: 'Close idle connections, or send the request over HTTP; retry later.' },
  PROMPT_TOO_LARGE: { meaning: 'The estimated prompt tokens exceed the route\'s context (or the upstream said so).', action: 'Reduce the prompt or attachments, then retry the smaller request.' },
  HEADERS_TOO_LARGE: { meaning: 'The request line or headers are over Node\'s header size limit; the body was not read.', action: 'Send fewer or shorter headers (or a shorter path), then retry.' },
  RATE_LIMITED: { meaning: 'The key\'s requests or tokens per window are used up; on a panel login, the address\'s failed or successful logins, or the console token\'s logins, in the window.', action: SLOW_DOWN },
  CONCURRENCY_LIMITED: { meaning: 'The key has as many requests in flight as it may (and its queue wait ran out).', action: SLOW_DOWN },
  QUEUE_FULL: { meaning: 'The key\'s wait queue for a concurrency slot is full.', action: SLOW_DOWN },
  QUOTA_EXCEEDED: { meaning: 'The key\'s token quota for its period (`quotaTokens` per `quotaPeriodHours`) is used up; `Retry-After` says when it renews.', action: AFTER_CAUSE },
  BUDGET_EXCEEDED: {
    meaning: 'A budget of the key or its account (a spending limit per UTC day or month) cannot cover the most this request may cost, with what the period has charged and what requests in flight hold; `Retry-After` says when its period renews.',
    action: 'Wait for the new period (honour `Retry-After`), shorten the prompt or lower the output limit, or have the budget raised.',
  },
  PANEL_SESSIONS_FULL: { meaning: 'A panel login while the panel holds as many sessions as it keeps (`sessions.maxSessions`); nobody is logged out to make room, and `Retry-After` says when the first one expires.', action: 'Log out of panel sessions no longer needed, or wait; honour `Retry-After`.' },
  INTERNAL_ERROR: { meaning: 'A fault inside the gateway; nothing of it is exposed.', action: TRANSIENT },
  UPSTREAM_INVALID_REQUEST: { meaning: 'The upstream refused the translated request; its words are in the message and `error.code`.', action: FIX_REQUEST },
  UPSTREAM_RATE_LIMITED: { meaning: 'The upstream rate-limited the gateway (every key it was tried with); its `Retry-After` is passed on.', action: SLOW_DOWN },
  UPSTREAM_AUTH_FAILED: { meaning: 'The upstream refused the gateway\'s own credentials (never the caller\'s fault); the key is taken out until an operator enables it.', action: TRANSIENT },
  UPSTREAM_UNREACHABLE: { meaning: 'No connection to the upstream could be made.', action: TRANSIENT },
  UPSTREAM_FAILED: { meaning: 'The upstream failed, answered malformed, or ended a stream early.', action: TRANSIENT },
  NO_ACCOUNT_AVAILABLE: {
    meaning: 'No upstream account can serve the route now: each of its keys is cooling down after a 429, taken out after a 401/403, behind an open circuit, or not configured. Nothing was sent upstream or billed.',
    action: 'Retry after `Retry-After` (when the first key is back); without one, only after the operator acts.',
  },
  SHUTTING_DOWN: {
    meaning: 'The gateway is shutting down: a new request is refused, and one still open at the end of the shutdown grace is ended (a stream with its terminal error event after what was already sent; it is billed on that part).',
    action: 'Retry the request in full (on another instance, or once this one is back); the answer was not completed.',
  },
  LIMITER_UNAVAILABLE: {
    meaning: 'The shared store of rate, token, quota and concurrency limits (Redis) cannot be reached, so the request was not admitted; nothing was generated or billed.',
    action: 'Retry after a short wait (honour `Retry-After`); the gateway reconnects by itself.',
  },
  STORE_UNAVAILABLE: {
    meaning: 'The shared database of keys, accounts, balances and the ledger (PostgreSQL) cannot be reached, so the request was not admitted (or its hold not taken); nothing was generated or billed.',
    action: 'Retry after a short wait (honour `Retry-After`); the gateway reconnects by itself.',
  },
  SSO_UNAVAILABLE: {
    meaning: 'The panel\'s single sign-on identity provider could not be reached (its discovery document at `sso.issuer`, or its token endpoint); discovery is tried again at the next login.',
    action: 'Retry the login later, or log in with a console token; the operator checks `sso.issuer`.',
  },
  UPSTREAM_OVERLOADED: { meaning: 'The upstream is overloaded (its 503 / 529), or every connection the gateway keeps to it stayed busy for the upstream\'s queue timeout.', action: TRANSIENT },
  UPSTREAM_TIMEOUT: { meaning: 'The upstream did not answer in time.', action: TRANSIENT },
};
