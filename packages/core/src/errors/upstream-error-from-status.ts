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
  if (status === 503 || status === 529) return 'UPSTREAM_OVERLOADED';
  if (status >= 400 && status < 500) return 'UPSTREAM_INVALID_REQUEST';
  return 'UPSTREAM_FAILED';
}

const OVERLOAD_TYPES = new Set(['overloaded_error', 'server_is_overloaded', 'slow_down']);
const RATE_LIMIT_TYPES = new Set(['rate_limit_error', 'rate_limit_exceeded']);

/**
 * Builds the gateway's error for a failure an upstream reported: an HTTP error (`details.status`
 * set) or an error event inside a stream (no status; the upstream's `type`/`code` decide).
 */
export function createUpstreamError(details: UpstreamErrorDetails, retryAfterMs?: number): GatewayError {
  const kind = details.type ?? details.code ?? '';
  let code: GatewayErrorCode;
  if (details.status !== undefined) code = mapUpstreamStatus(details.status);
  else if (OVERLOAD_TYPES.has(kind)) code = 'UPSTREAM_OVERLOADED';
  else if (RATE_LIMIT_TYPES.has(kind)) code = 'UPSTREAM_RATE_LIMITED';
  else code = 'UPSTREAM_FAILED';
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
