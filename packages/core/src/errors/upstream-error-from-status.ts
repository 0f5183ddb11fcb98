import type { GatewayErrorCode } from './error-codes';
import { scrubSecrets } from '../redact/redact';
import { GatewayError, type UpstreamErrorDetails } from './gateway-error';

/**
 * The service code for an upstream HTTP failure. Upstream statuses never pass through as they are:
 * a provider's 401 is the gateway's credential problem (502), not the caller's.
 */
export function mapUpstreamStatus(status: number): GatewayErrorCode {
  if (status === 401 || status === 403) return 'UPSTREAM_AUTH_FAILED';
  if (status === 408 || status === 504) return 'UPSTREAM_TIMEOUT';
  if (status === 413) return 'PROMPT_TOO_LARGE';
  // An upstream 404 means the gateway's own configuration (base URL, model name) is wrong, not the caller's request.
  if (status === 404) return 'UPSTREAM_FAILED';
  if (status === 429) return 'UPSTREAM_RATE_LIMITED';
  // 529, outside HTTP's registry, is the overload status some services answer with.
  if (status === 503 || status === 529) return 'UPSTREAM_OVERLOADED';
  if (status >= 400 && status < 500) return 'UPSTREAM_INVALID_REQUEST';
  return 'UPSTREAM_FAILED';
}

/**
 * A protocol's own words, in an error's `type` or `code`, for an overload or a rate limit
 * (Anthropic's `overloaded_error`): what decides the code of a failure an upstream reports without
 * an HTTP status, such as a stream's error event. Each codec keeps its protocol's.
 */
export type UpstreamFailureWords = ReadonlyMap<string, 'UPSTREAM_OVERLOADED' | 'UPSTREAM_RATE_LIMITED'>;

export type UpstreamErrorOptions = {
  /** How long the caller should wait before retrying (the upstream's `Retry-After`). */
  retryAfterMs?: number | undefined;
  /** The upstream protocol's words for a failure without a status; any other such failure is `UPSTREAM_FAILED`. */
  failureWords?: UpstreamFailureWords;
};

/**
 * Builds the gateway's error for a failure an upstream reported: an HTTP error (`details.status`
 * set: the status decides) or an error event inside a stream (no status: the upstream's
 * `type`/`code`, read with its protocol's `failureWords`, decide).
 */
export function createUpstreamError(details: UpstreamErrorDetails, options: UpstreamErrorOptions = {}): GatewayError {
  const { retryAfterMs, failureWords } = options;
  const code: GatewayErrorCode =
    details.status !== undefined ? mapUpstreamStatus(details.status) : (wordCode(failureWords, details) ?? 'UPSTREAM_FAILED');
  // An upstream may quote a credential (its own key, when it refuses it): never pass that on.
  if (details.message !== undefined) details = { ...details, message: scrubSecrets(details.message) };
  const said = details.message ? `: ${details.message}` : '';
  const status = details.status !== undefined ? ` ${details.status}` : '';
  return new GatewayError({
    code,
    message: `Upstream${status} error${said}`,
    upstream: details,
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  });
}

/** What the failure's `type`, else its `code`, says in the protocol's words. */
function wordCode(words: UpstreamFailureWords | undefined, { type, code }: UpstreamErrorDetails): GatewayErrorCode | undefined {
  return (type === undefined ? undefined : words?.get(type)) ?? (code === undefined ? undefined : words?.get(code));
}
