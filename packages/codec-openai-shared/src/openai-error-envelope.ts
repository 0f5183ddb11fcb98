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
 * OpenAI's words, in an error's `type` or `code`, that say what a failure without a status was (an
 * error event in a stream, a `failed` response): an overload or a rate limit.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
const OPENAI_FAILURE_WORDS: UpstreamFailureWords = new Map([
  ['server_is_overloaded', 'UPSTREAM_OVERLOADED'],
  ['slow_down', 'UPSTREAM_OVERLOADED'],
  ['rate_limit_exceeded', 'UPSTREAM_RATE_LIMITED'],
  ['rate_limit_error', 'UPSTREAM_RATE_LIMITED'],
]);

/** OpenAI's `error.code` word for service codes that have one; others use the lower-cased service code. */
const OPENAI_CODES: Partial<Record<GatewayErrorCode, string>> = {
  API_KEY_MISSING: 'missing_api_key',
  API_KEY_INVALID: 'invalid_api_key',
  MODEL_NOT_FOUND: 'model_not_found',
  INVALID_JSON: 'invalid_json',
  RATE_LIMITED: 'rate_limit_exceeded',
  UPSTREAM_RATE_LIMITED: 'rate_limit_exceeded',
  QUOTA_EXCEEDED: 'insufficient_quota',
  REQUEST_TOO_LARGE: 'request_too_large',
  PROMPT_TOO_LARGE: 'context_length_exceeded',
  UPSTREAM_OVERLOADED: 'server_is_overloaded',
  UPSTREAM_TIMEOUT: 'timeout',
};

/**
 * OpenAI's `error.type` for an HTTP status. OpenAI publishes no exhaustive table, so these are the
 * types its API is seen answering with for each status.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export function mapOpenAIErrorType(status: number, code?: GatewayErrorCode): string {
  if (code === 'QUOTA_EXCEEDED') return 'insufficient_quota';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 503) return 'service_unavailable_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/**
 * The `error.code` beside the service code. For upstream failures: the upstream's own code, or
 * `null` when it gave none (never an invented one, which a client could take for the upstream's)
 * — except an upstream's auth failure, whose code (`invalid_api_key`) would wrongly blame the
 * caller's key. Otherwise OpenAI's word for the service code, or the service code in lower case.
 */
export function mapOpenAIErrorCode(error: GatewayError): string | null {
  if (error.code === 'UPSTREAM_AUTH_FAILED') return 'upstream_auth_failed';
  if (error.upstream) return error.upstream.code ?? OPENAI_CODES[error.code] ?? null;
  return OPENAI_CODES[error.code] ?? error.code.toLowerCase();
}

/**
 * `{ error: { message, type, param, code }, code, request_id }`: OpenAI's envelope, plus the stable
 * service code and request id at the top level. 529 is not an OpenAI status; overloads go out as 503.
 */
export function encodeOpenAIError(error: GatewayError, requestId: string): EncodedError {
  return {
    status: error.status,
    body: {
      error: {
        message: error.message,
        type: mapOpenAIErrorType(error.status, error.code),
        param: error.param ?? null,
        code: mapOpenAIErrorCode(error),
      },
      code: error.code,
      request_id: requestId,
    },
  };
}

/** The in-stream error object (`{ message, type, param, code }`) for an error after the response began. */
export function encodeOpenAIErrorObject(error: GatewayError) {
  return encodeOpenAIError(error, '').body.error as {
    message: string;
    type: string;
    param: string | null;
    code: string | null;
  };
}

/**
 * Reads an OpenAI-style error body: `{ error: { … } }`, the flat `{ type: 'error', code, message }`
 * stream form, or anything else (plain text, HTML from a proxy) as the message.
 */
export function decodeOpenAIError(body: unknown): UpstreamErrorDetails {
  // Scrubbed before the cut, so that no piece of a credential the text quotes survives it.
  if (typeof body === 'string') return body.trim() === '' ? {} : { message: boundClientText(body, 500) };
  if (!isJSONObject(body)) return {};
  const inner = isJSONObject(body.error) ? body.error : body;
  return withoutUndefined({
    message: stringOrUndefined(inner.message),
    type: stringOrUndefined(inner.type),
    code: stringOrUndefined(inner.code),
    param: stringOrUndefined(inner.param),
  });
}

/** The gateway's error for a failure an upstream reported in its body (an error event, a `failed` response), read in OpenAI's words. */
export function createOpenAIBodyError(details: UpstreamErrorDetails): GatewayError {
  return createUpstreamError(details, { failureWords: OPENAI_FAILURE_WORDS });
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
