import {
  boundClientText,
  createUpstreamError,
  isJSONObject,
  type EncodedError,
  type GatewayError,
  type GatewayErrorCode,
  type UpstreamErrorDetails,
  type UpstreamFailureWords,
} from '@signalbox/core';

/**
 * Anthropic's `error.type` words that say what a failure without a status was (an `error` event in
 * a stream): an overload or a rate limit.
 * @see https://docs.anthropic.com/en/api/errors
 */
const ANTHROPIC_FAILURE_WORDS: UpstreamFailureWords = new Map([
  ['overloaded_error', 'UPSTREAM_OVERLOADED'],
  ['rate_limit_error', 'UPSTREAM_RATE_LIMITED'],
]);

const ERROR_TYPES_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  413: 'request_too_large',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
  500: 'api_error',
  502: 'api_error',
  504: 'timeout_error',
};

/**
 * Anthropic's `error.type` for an HTTP status; 503 is `overloaded_error` only when the upstream
 * really was overloaded (otherwise, e.g. no account available, `api_error`).
 * @see https://docs.anthropic.com/en/api/errors
 */
export function mapAnthropicErrorType(status: number, code?: GatewayErrorCode): string {
  if (status === 503) return code === 'UPSTREAM_OVERLOADED' ? 'overloaded_error' : 'api_error';
  return ERROR_TYPES_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/**
 * `{ type: 'error', error: { type, message }, request_id, code }`: Anthropic's envelope plus the
 * stable service code. Nothing from `error.cause` is ever rendered.
 */
export function encodeAnthropicError(error: GatewayError, requestId: string): EncodedError {
  return {
    status: error.status,
    body: {
      type: 'error',
      error: { type: mapAnthropicErrorType(error.status, error.code), message: error.message },
      request_id: requestId,
      code: error.code,
    },
  };
}

/**
 * The in-stream `error.type` for a failure after the response began: overloads and rate limits keep
 * their own types (the SDK picks its error class from them), everything else is `api_error`.
 */
export function mapAnthropicStreamErrorType(error: GatewayError): string {
  if (error.code === 'UPSTREAM_OVERLOADED') return 'overloaded_error';
  if (error.status === 429) return 'rate_limit_error';
  return 'api_error';
}

/**
 * Reads an upstream's error body: Anthropic's `{ type: 'error', error: { type, message } }`, an
 * OpenAI-style `{ error: { … } }`, a JSON or plain-text string (a proxy's HTML page, say).
 */
export function decodeAnthropicError(body: unknown): UpstreamErrorDetails {
  if (typeof body === 'string') return decodeErrorText(body);
  if (!isJSONObject(body)) return {};
  const inner = isJSONObject(body.error) ? body.error : body;
  const details = isJSONObject(inner.details) ? inner.details : undefined;
  const decoded: UpstreamErrorDetails = {};
  if (typeof inner.type === 'string' && inner.type !== 'error') decoded.type = inner.type;
  if (typeof inner.message === 'string') decoded.message = inner.message;
  const code = details?.error_code ?? inner.code;
  if (typeof code === 'string') decoded.code = code;
  if (typeof inner.param === 'string') decoded.param = inner.param;
  if (typeof body.request_id === 'string') decoded.requestId = body.request_id;
  return decoded;
}

function decodeErrorText(text: string): UpstreamErrorDetails {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (trimmed.startsWith('{')) {
    try {
      return decodeAnthropicError(JSON.parse(trimmed) as unknown);
    } catch {
      // Not JSON after all: fall through and keep the text.
    }
  }
  // Scrubbed before the cut, so that no piece of a credential the text quotes survives it.
  return { message: boundClientText(trimmed, 500) };
}

/** The gateway's error for a failure an upstream reported in its body (a stream's `error` event), read in Anthropic's words. */
export function createAnthropicBodyError(body: unknown): GatewayError {
  return createUpstreamError(decodeAnthropicError(body), { failureWords: ANTHROPIC_FAILURE_WORDS });
}
