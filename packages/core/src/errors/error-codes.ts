/**
 * Where a refusal comes from, as the error catalogue reports it:
 * - `service`: the gateway's own rules (keys, accounts, limits, routing);
 * - `compatibility`: the protocol layer (malformed or untranslatable requests, version headers);
 * - `upstream`: the model provider answered with or caused the failure.
 */
export type ErrorSource = 'service' | 'compatibility' | 'upstream';

type CodeSpec = { status: number; source: ErrorSource; retryable: boolean };

/** Every stable service code the gateway emits (top-level `code` in error bodies) and its HTTP status. */
export const GATEWAY_ERROR_CODES = {
  INVALID_REQUEST: { status: 400, source: 'compatibility', retryable: false },
  INVALID_JSON: { status: 400, source: 'compatibility', retryable: false },
  UNSUPPORTED_PARAMETER: { status: 400, source: 'compatibility', retryable: false },
  VERSION_HEADER_MISSING: { status: 400, source: 'compatibility', retryable: false },
  VERSION_HEADER_INVALID: { status: 400, source: 'compatibility', retryable: false },
  INTERFACE_NOT_SUPPORTED: { status: 400, source: 'service', retryable: false },
  API_KEY_MISSING: { status: 401, source: 'service', retryable: false },
  API_KEY_INVALID: { status: 401, source: 'service', retryable: false },
  API_KEY_DISABLED: { status: 401, source: 'service', retryable: false },
  API_KEY_EXPIRED: { status: 403, source: 'service', retryable: false },
  MODEL_NOT_ALLOWED: { status: 403, source: 'service', retryable: false },
  GROUP_NOT_ALLOWED: { status: 403, source: 'service', retryable: false },
  SUBSCRIPTION_INACTIVE: { status: 403, source: 'service', retryable: false },
  INSUFFICIENT_BALANCE: { status: 403, source: 'service', retryable: false },
  ADMIN_TOKEN_MISSING: { status: 401, source: 'service', retryable: false },
  ADMIN_TOKEN_INVALID: { status: 401, source: 'service', retryable: false },
  ADMIN_TOKEN_REQUIRED: { status: 403, source: 'service', retryable: false },
  CONSOLE_ROLE_FORBIDDEN: { status: 403, source: 'service', retryable: false },
  PANEL_SESSION_MISSING: { status: 401, source: 'service', retryable: false },
  PANEL_REQUEST_FORBIDDEN: { status: 403, source: 'service', retryable: false },
  SSO_LOGIN_FAILED: { status: 400, source: 'service', retryable: false },
  SSO_REFUSED: { status: 403, source: 'service', retryable: false },
  ENDPOINT_NOT_FOUND: { status: 404, source: 'service', retryable: false },
  RESOURCE_NOT_FOUND: { status: 404, source: 'service', retryable: false },
  MODEL_NOT_FOUND: { status: 404, source: 'service', retryable: false },
  REQUEST_TIMEOUT: { status: 408, source: 'service', retryable: true },
  KEY_LIMITS_ABOVE_CEILING: { status: 409, source: 'service', retryable: false },
  CONFIG_READ_ONLY: { status: 409, source: 'service', retryable: false },
  CONFIG_VERSION_CONFLICT: { status: 409, source: 'service', retryable: false },
  REQUEST_TOO_LARGE: { status: 413, source: 'service', retryable: false },
  UNSUPPORTED_CONTENT_ENCODING: { status: 415, source: 'compatibility', retryable: false },
  WEBSOCKET_NOT_SUPPORTED: { status: 426, source: 'compatibility', retryable: false },
  WEBSOCKET_RESPONSE_IN_PROGRESS: { status: 409, source: 'compatibility', retryable: false },
  WEBSOCKET_CONNECTION_LIMIT_REACHED: { status: 400, source: 'service', retryable: true },
  WEBSOCKET_SOCKETS_LIMITED: { status: 429, source: 'service', retryable: true },
  PROMPT_TOO_LARGE: { status: 413, source: 'service', retryable: false },
  HEADERS_TOO_LARGE: { status: 431, source: 'service', retryable: false },
  RATE_LIMITED: { status: 429, source: 'service', retryable: true },
  CONCURRENCY_LIMITED: { status: 429, source: 'service', retryable: true },
  QUEUE_FULL: { status: 429, source: 'service', retryable: true },
  QUOTA_EXCEEDED: { status: 429, source: 'service', retryable: false },
  BUDGET_EXCEEDED: { status: 429, source: 'service', retryable: false },
  PANEL_SESSIONS_FULL: { status: 429, source: 'service', retryable: true },
  INTERNAL_ERROR: { status: 500, source: 'service', retryable: false },
  UPSTREAM_INVALID_REQUEST: { status: 400, source: 'upstream', retryable: false },
  UPSTREAM_RATE_LIMITED: { status: 429, source: 'upstream', retryable: true },
  UPSTREAM_AUTH_FAILED: { status: 502, source: 'upstream', retryable: false },
  UPSTREAM_UNREACHABLE: { status: 502, source: 'upstream', retryable: true },
  UPSTREAM_FAILED: { status: 502, source: 'upstream', retryable: false },
  NO_ACCOUNT_AVAILABLE: { status: 503, source: 'service', retryable: true },
  SHUTTING_DOWN: { status: 503, source: 'service', retryable: true },
  LIMITER_UNAVAILABLE: { status: 503, source: 'service', retryable: true },
  SSO_UNAVAILABLE: { status: 503, source: 'service', retryable: true },
  STORE_UNAVAILABLE: { status: 503, source: 'service', retryable: true },
  UPSTREAM_OVERLOADED: { status: 503, source: 'upstream', retryable: true },
  UPSTREAM_TIMEOUT: { status: 504, source: 'upstream', retryable: false },
} as const satisfies Record<string, CodeSpec>;

export type GatewayErrorCode = keyof typeof GATEWAY_ERROR_CODES;
