import { createUpstreamError, firstHeaderValue, GatewayError, headerValue, type UpstreamErrorDetails } from '@signalbox/core';
import { parseRateLimitResetMs, parseRetryAfterMs, type UpstreamResponse } from '@signalbox/upstream';
import type { PooledCredential } from '../upstreams/credential-pool';
import type { ComposedUpstreamCall } from './compose-upstream-call';
import type { UpstreamTarget } from './upstream-target';

/**
 * Sends one composed call with `credential` (and the headers its kind makes for the call, when it
 * makes any) and returns a 2xx response. A non-2xx answer is read, decoded by the upstream's codec
 * and thrown as the gateway's own error (the upstream's status never passes through), with the
 * wait it asked for: a 429's is its rate limit's reset (`now`, epoch ms, reads a reset given as a time).
 */
export async function callUpstream(
  target: UpstreamTarget,
  credential: PooledCredential,
  call: ComposedUpstreamCall,
  signal: AbortSignal,
  now: number,
): Promise<UpstreamResponse> {
  const { path, body } = call;
  const headers = credential.authorize ? await authorizedHeaders(credential, call) : nonEmpty(call.headers);
  const response = await credential.client.send({ path, body, ...(headers && { headers }) }, signal);
  if (response.status >= 200 && response.status < 300) return response;
  const text = await response.text().catch(() => '');
  const details = withErrorType(target, response, target.codec.decodeError(parseJSONOrText(text)));
  const requestId = upstreamRequestId(target, response);
  throw createUpstreamError(
    { ...details, status: response.status, ...(requestId !== undefined && { requestId }) },
    { retryAfterMs: response.status === 429 ? rateLimitResetMs(target, response, now) : parseRetryAfterMs(response.headers, now) },
  );
}

/** A refusal's type from the header the upstream's kind names it in, where it has one. */
function withErrorType(target: UpstreamTarget, response: UpstreamResponse, details: UpstreamErrorDetails): UpstreamErrorDetails {
  const { errorTypeHeader } = target.kind;
  if (errorTypeHeader === undefined) return details;
  const type = headerValue(response.headers, errorTypeHeader)?.split(':')[0];
  return type ? { ...details, type } : details;
}

/** The call's headers with those the credential's kind makes for it (a fresh token, a signature over the request). */
async function authorizedHeaders(credential: PooledCredential, call: ComposedUpstreamCall): Promise<Record<string, string>> {
  const url = credential.client.baseURL.replace(/\/+$/, '') + call.path;
  const made = credential.authorize!({ method: 'POST', url, headers: call.headers ?? {}, body: call.body });
  return { ...call.headers, ...(made instanceof Promise ? await made : made) };
}

function nonEmpty(headers: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> | undefined {
  return headers && Object.keys(headers).length > 0 ? headers : undefined;
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
