import { createUpstreamError, firstHeaderValue, GatewayError } from '@signalbox/core';
import { parseRateLimitResetMs, parseRetryAfterMs, type UpstreamResponse } from '@signalbox/upstream';
import type { PooledCredential } from '../upstreams/credential-pool';
import type { UpstreamTarget } from './upstream-target';

/** Where and with which extra headers one call goes; by default the target's own path and headers. */
export type UpstreamCallOptions = { path?: string; headers?: Record<string, string> };

/**
 * Sends one encoded body with `credential` and returns a 2xx response. A non-2xx answer is read,
 * decoded by the upstream's codec and thrown as the gateway's own error (the upstream's status
 * never passes through), with the wait it asked for: a 429's is its rate limit's reset (`now`,
 * epoch ms, reads a reset given as a time).
 */
export async function callUpstream(
  target: UpstreamTarget,
  credential: PooledCredential,
  body: string,
  signal: AbortSignal,
  call: UpstreamCallOptions,
  now: number,
): Promise<UpstreamResponse> {
  const headers = call.headers && Object.keys(call.headers).length > 0 ? call.headers : undefined;
  const response = await credential.client.send({ path: call.path ?? target.path, body, ...(headers && { headers }) }, signal);
  if (response.status >= 200 && response.status < 300) return response;
  const text = await response.text().catch(() => '');
  const details = target.codec.decodeError(parseJSONOrText(text));
  const requestId = upstreamRequestId(target, response);
  throw createUpstreamError(
    { ...details, status: response.status, ...(requestId !== undefined && { requestId }) },
    { retryAfterMs: response.status === 429 ? rateLimitResetMs(target, response, now) : parseRetryAfterMs(response.headers, now) },
  );
}

/** When a rate-limited credential may call again: `retry-after`, else the limits the upstream's protocol describes. */
function rateLimitResetMs(target: UpstreamTarget, response: UpstreamResponse, now: number): number | undefined {
  const resets = target.codec.descriptor.readRateLimitResets?.(response.headers, now) ?? [];
  return parseRateLimitResetMs(response.headers, now, resets);
}

/** The upstream's own id for a call, from the headers its protocol puts it in. */
export function upstreamRequestId(target: UpstreamTarget, response: UpstreamResponse): string | undefined {
  return firstHeaderValue(response.headers, target.codec.descriptor.upstreamRequestIdHeaders);
}

/** Parses an upstream's 2xx JSON body; a body that is not JSON is the upstream's fault. */
export async function readUpstreamJSON(response: UpstreamResponse): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new GatewayError({ code: 'UPSTREAM_FAILED', message: 'The upstream answered with a body that is not JSON.', cause: error });
  }
}

function parseJSONOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
