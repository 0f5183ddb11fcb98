import { GATEWAY_ERROR_CODES } from '@signalbox/core';

/** The label value of a request with no configured route: its model matched none, or it was refused before routing. */
export const UNKNOWN_ROUTE = 'unknown';
/** The label value where there is nothing to name: no upstream was called, no group, no error code. */
export const NONE = 'none';
/** The label value of an error code outside the gateway's code table, or of a group not listed. */
export const OTHER = 'other';

/** The error codes a limiter refuses with (`limiter refusals by code`). */
const LIMITER_CODES: ReadonlySet<string> = new Set([
  'RATE_LIMITED',
  'CONCURRENCY_LIMITED',
  'QUEUE_FULL',
  'QUOTA_EXCEEDED',
  'LIMITER_UNAVAILABLE',
]);

/**
 * Turns values read from requests into label values from a set fixed by the config, so that no
 * client can add a time series: the label of a value outside the set is a constant.
 */
export type LabelValues = {
  route(route: string | undefined): string;
  upstream(upstream: string | undefined): string;
  /** An upstream credential's name: a configured one as it is, `other` for any other, `none` for none. */
  credential(credential: string | undefined): string;
  /** A service code of the gateway's table, `other` for any other string, `none` for no error. */
  code(errorCode: string | undefined): string;
  group(group: string | undefined): string;
  isLimiterCode(errorCode: string | undefined): boolean;
};

export function createLabelValues(options: {
  routes: readonly string[];
  upstreams: readonly string[] | undefined;
  credentials?: readonly string[] | undefined;
  groups: readonly string[] | 'all';
}): LabelValues {
  const routes = new Set(options.routes);
  const upstreams = options.upstreams && new Set(options.upstreams);
  const credentials = options.credentials && new Set(options.credentials);
  const groups = options.groups === 'all' ? undefined : new Set(options.groups);
  return {
    route: route => (route !== undefined && routes.has(route) ? route : UNKNOWN_ROUTE),
    upstream: upstream =>
      upstream === undefined ? NONE : !upstreams || upstreams.has(upstream) ? upstream : OTHER,
    credential: credential =>
      credential === undefined ? NONE : !credentials || credentials.has(credential) ? credential : OTHER,
    code: errorCode =>
      errorCode === undefined ? NONE : Object.hasOwn(GATEWAY_ERROR_CODES, errorCode) ? errorCode : OTHER,
    group: group => (group === undefined ? NONE : !groups || groups.has(group) ? group : OTHER),
    isLimiterCode: errorCode => errorCode !== undefined && LIMITER_CODES.has(errorCode),
  };
}
