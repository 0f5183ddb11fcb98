export {
  createUpstreamClient,
  DEFAULT_UPSTREAM_CONNECTIONS,
  DEFAULT_UPSTREAM_QUEUE_TIMEOUT_MS,
  type UpstreamClient,
  type UpstreamClientStats,
  type UpstreamClientOptions,
} from './create-upstream-client';
export { mapTransportError } from './map-transport-error';
export { parseRetryAfterMs } from './parse-retry-after';
export { parseRateLimitResetMs } from './parse-rate-limit-reset';
export { defaultRetryPolicy, getRetryDelayMs, type RetryPolicy } from './retry-policy';
export type { UpstreamRequest, UpstreamResponse } from './upstream-response';
export { createRefreshingToken, type IssuedToken, type RefreshingToken, type RefreshingTokenOptions } from './create-refreshing-token';
export { openBearerTokenCredential } from './open-bearer-token-credential';
