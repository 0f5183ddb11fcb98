import {
  boundClientText,
  createUpstreamError,
  isJSONObject,
  type EncodedError,
  type GatewayError,
  type GatewayErrorCode,
  type JSONObject,
  type UpstreamErrorDetails,
  type UpstreamFailureWords,
} from '@signalbox/core';

/**
 * The canonical status name (google.rpc.Code) each service code is answered with: the words
 * Google's clients switch on, beside the HTTP status the code table fixes.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 * @see https://cloud.google.com/apis/design/errors#handling_errors
 */
export const GEMINI_STATUS_NAMES = {
  INVALID_REQUEST: 'INVALID_ARGUMENT',
  INVALID_JSON: 'INVALID_ARGUMENT',
  UNSUPPORTED_PARAMETER: 'INVALID_ARGUMENT',
  VERSION_HEADER_MISSING: 'INVALID_ARGUMENT',
  VERSION_HEADER_INVALID: 'INVALID_ARGUMENT',
  INTERFACE_NOT_SUPPORTED: 'FAILED_PRECONDITION',
  API_KEY_MISSING: 'UNAUTHENTICATED',
  API_KEY_INVALID: 'UNAUTHENTICATED',
  API_KEY_DISABLED: 'UNAUTHENTICATED',
  API_KEY_EXPIRED: 'PERMISSION_DENIED',
  MODEL_NOT_ALLOWED: 'PERMISSION_DENIED',
  GROUP_NOT_ALLOWED: 'PERMISSION_DENIED',
  SUBSCRIPTION_INACTIVE: 'PERMISSION_DENIED',
  INSUFFICIENT_BALANCE: 'PERMISSION_DENIED',
  ADMIN_TOKEN_MISSING: 'UNAUTHENTICATED',
  ADMIN_TOKEN_INVALID: 'UNAUTHENTICATED',
  ADMIN_TOKEN_REQUIRED: 'PERMISSION_DENIED',
  CONSOLE_ROLE_FORBIDDEN: 'PERMISSION_DENIED',
  SSO_LOGIN_FAILED: 'INVALID_ARGUMENT',
  SSO_REFUSED: 'PERMISSION_DENIED',
  PANEL_SESSION_MISSING: 'UNAUTHENTICATED',
  PANEL_REQUEST_FORBIDDEN: 'PERMISSION_DENIED',
  ENDPOINT_NOT_FOUND: 'NOT_FOUND',
  RESOURCE_NOT_FOUND: 'NOT_FOUND',
  MODEL_NOT_FOUND: 'NOT_FOUND',
  REQUEST_TIMEOUT: 'DEADLINE_EXCEEDED',
  KEY_LIMITS_ABOVE_CEILING: 'FAILED_PRECONDITION',
  CONFIG_READ_ONLY: 'FAILED_PRECONDITION',
  CONFIG_VERSION_CONFLICT: 'ABORTED',
  REQUEST_TOO_LARGE: 'INVALID_ARGUMENT',
  UNSUPPORTED_CONTENT_ENCODING: 'INVALID_ARGUMENT',
  WEBSOCKET_NOT_SUPPORTED: 'FAILED_PRECONDITION',
  WEBSOCKET_RESPONSE_IN_PROGRESS: 'ABORTED',
  WEBSOCKET_CONNECTION_LIMIT_REACHED: 'FAILED_PRECONDITION',
  WEBSOCKET_SOCKETS_LIMITED: 'RESOURCE_EXHAUSTED',
  PROMPT_TOO_LARGE: 'INVALID_ARGUMENT',
  HEADERS_TOO_LARGE: 'INVALID_ARGUMENT',
  RATE_LIMITED: 'RESOURCE_EXHAUSTED',
  CONCURRENCY_LIMITED: 'RESOURCE_EXHAUSTED',
  QUEUE_FULL: 'RESOURCE_EXHAUSTED',
  QUOTA_EXCEEDED: 'RESOURCE_EXHAUSTED',
  BUDGET_EXCEEDED: 'RESOURCE_EXHAUSTED',
  PANEL_SESSIONS_FULL: 'RESOURCE_EXHAUSTED',
  INTERNAL_ERROR: 'INTERNAL',
  UPSTREAM_INVALID_REQUEST: 'INVALID_ARGUMENT',
  UPSTREAM_RATE_LIMITED: 'RESOURCE_EXHAUSTED',
  UPSTREAM_AUTH_FAILED: 'INTERNAL',
  UPSTREAM_UNREACHABLE: 'UNAVAILABLE',
  UPSTREAM_FAILED: 'INTERNAL',
  NO_ACCOUNT_AVAILABLE: 'UNAVAILABLE',
  SHUTTING_DOWN: 'UNAVAILABLE',
  LIMITER_UNAVAILABLE: 'UNAVAILABLE',
  STORE_UNAVAILABLE: 'UNAVAILABLE',
  SSO_UNAVAILABLE: 'UNAVAILABLE',
  UPSTREAM_OVERLOADED: 'UNAVAILABLE',
  UPSTREAM_TIMEOUT: 'DEADLINE_EXCEEDED',
} as const satisfies Record<GatewayErrorCode, string>;

/** Google's status names that say what a failure without an HTTP status was (an error chunk in a stream). */
const GEMINI_FAILURE_WORDS: UpstreamFailureWords = new Map([
  ['RESOURCE_EXHAUSTED', 'UPSTREAM_RATE_LIMITED'],
  ['UNAVAILABLE', 'UPSTREAM_OVERLOADED'],
]);

/** Where the ErrorInfo detail says the reason comes from: the gateway, not Google. */
const ERROR_DOMAIN = 'signalbox';

/**
 * `{ error: { code, message, status, details }, code, request_id }`: Google's envelope, with the
 * service code as an `ErrorInfo` reason (its `metadata` naming the field at fault) and the request
 * id as `RequestInfo`, plus the service code and request id at the top level as on every endpoint.
 * @see https://cloud.google.com/apis/design/errors#error_model
 */
export function encodeGeminiError(error: GatewayError, requestId: string): EncodedError {
  return { status: error.status, body: { error: encodeGeminiErrorObject(error, requestId), code: error.code, request_id: requestId } };
}

/** The inner error object, also what a stream's error chunk carries. */
export function encodeGeminiErrorObject(error: GatewayError, requestId: string): JSONObject {
  const metadata: Record<string, string> = { service_code: error.code, ...(error.param !== undefined && { param: error.param }) };
  return {
    code: error.status,
    message: error.message,
    status: GEMINI_STATUS_NAMES[error.code],
    details: [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: error.code, domain: ERROR_DOMAIN, metadata },
      ...(requestId === '' ? [] : [{ '@type': 'type.googleapis.com/google.rpc.RequestInfo', requestId }]),
    ],
  };
}

/**
 * Reads Google's error body (`{ error: { code, message, status } }`, or an array of one such, as a
 * JSON-array stream fails), or anything else (plain text, a proxy's HTML) as the message.
 */
export function decodeGeminiError(body: unknown): UpstreamErrorDetails {
  if (typeof body === 'string') return body.trim() === '' ? {} : { message: boundClientText(body, 500) };
  const first = Array.isArray(body) ? (body[0] as unknown) : body;
  if (!isJSONObject(first)) return {};
  const inner = isJSONObject(first.error) ? first.error : first;
  const details: UpstreamErrorDetails = {};
  if (typeof inner.message === 'string') details.message = inner.message;
  if (typeof inner.status === 'string') details.type = inner.status;
  const reason = reasonOf(inner.details);
  if (reason !== undefined) details.code = reason;
  return details;
}

/** The gateway's error for a failure an upstream reported inside a 200 stream, read in Google's words. */
export function createGeminiBodyError(details: UpstreamErrorDetails): GatewayError {
  return createUpstreamError(details, { failureWords: GEMINI_FAILURE_WORDS });
}

function reasonOf(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) if (isJSONObject(detail) && typeof detail.reason === 'string') return detail.reason;
  return undefined;
}
