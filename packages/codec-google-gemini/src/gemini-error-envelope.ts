import {
  boundClientText,
  createUpstreamError,
  GATEWAY_ERROR_CODES,
  isJSONObject,
  type EncodedError,
  type GatewayError,
  type GatewayErrorCode,
  type JSONObject,
  type UpstreamErrorDetails,
  type UpstreamFailureWords,
} from '@signalbox/core';

/** Google's canonical status names (google.rpc.Code) that the gateway answers with. */
export type GeminiStatusName =
  | 'INVALID_ARGUMENT'
  | 'FAILED_PRECONDITION'
  | 'UNAUTHENTICATED'
  | 'PERMISSION_DENIED'
  | 'NOT_FOUND'
  | 'ABORTED'
  | 'RESOURCE_EXHAUSTED'
  | 'CANCELLED'
  | 'INTERNAL'
  | 'UNIMPLEMENTED'
  | 'UNAVAILABLE'
  | 'DEADLINE_EXCEEDED';

/**
 * The status name Google pairs with each HTTP status; another 4xx is an INVALID_ARGUMENT, another
 * 5xx an INTERNAL.
 * @see https://cloud.google.com/apis/design/errors#handling_errors
 */
const STATUS_NAMES_BY_HTTP_STATUS: Readonly<Record<number, GeminiStatusName>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/**
 * Codes Google's names describe better than their HTTP status does: a refusal by the system's state
 * (not a conflict a retry resolves), a timeout, an upstream that could not be reached.
 */
const STATUS_NAME_OVERRIDES: Partial<Record<GatewayErrorCode, GeminiStatusName>> = {
  INTERFACE_NOT_SUPPORTED: 'FAILED_PRECONDITION',
  KEY_LIMITS_ABOVE_CEILING: 'FAILED_PRECONDITION',
  CONFIG_READ_ONLY: 'FAILED_PRECONDITION',
  WEBSOCKET_NOT_SUPPORTED: 'FAILED_PRECONDITION',
  WEBSOCKET_CONNECTION_LIMIT_REACHED: 'FAILED_PRECONDITION',
  REQUEST_TIMEOUT: 'DEADLINE_EXCEEDED',
  UPSTREAM_UNREACHABLE: 'UNAVAILABLE',
};

function statusNameOf(code: GatewayErrorCode): GeminiStatusName {
  const { status } = GATEWAY_ERROR_CODES[code];
  return STATUS_NAME_OVERRIDES[code] ?? STATUS_NAMES_BY_HTTP_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
}

/**
 * The canonical status name each service code is answered with: the words Google's clients switch
 * on, beside the HTTP status the code table fixes.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 */
export const GEMINI_STATUS_NAMES: Readonly<Record<GatewayErrorCode, GeminiStatusName>> = Object.fromEntries(
  (Object.keys(GATEWAY_ERROR_CODES) as GatewayErrorCode[]).map(code => [code, statusNameOf(code)]),
) as Record<GatewayErrorCode, GeminiStatusName>;

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
