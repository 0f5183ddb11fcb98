import { GatewayError, type JSONObject, type KindTokenCount } from '@signalbox/core';
import { isUsable } from '../upstreams/select-credential';
import { callUpstream, readUpstreamJSON } from './call-upstream';
import type { UpstreamTarget } from './upstream-target';

/** What asking a target's cloud for a token count needs. */
export type UpstreamCountRequest = {
  target: UpstreamTarget;
  /** The model named at the upstream. */
  model: string;
  /** The client's token-count body, already decoded (so an object). */
  body: JSONObject;
  signal: AbortSignal;
  now: number;
};

/**
 * The input tokens of a token-count body as the target's cloud counts them (Bedrock's CountTokens,
 * Vertex AI's count-tokens), or `undefined` when its kind counts none, no credential is usable now,
 * or the count failed (a model it cannot count, a throttle, an outage): then the caller falls back to
 * its estimate. A refused credential is not a fallback: it is thrown, `UPSTREAM_AUTH_FAILED`, unless
 * the refusal's type says the count alone is denied (`deniedTypes`). A count teaches the pool
 * nothing; it bills nothing either.
 */
export async function countAtUpstream(request: UpstreamCountRequest): Promise<number | undefined> {
  const { target, model, signal, now } = request;
  const counting = target.kind.countTokens;
  if (counting === undefined) return undefined;
  const credential = target.pool.credentials.find(candidate => isUsable(candidate, now));
  if (credential === undefined) return undefined;
  try {
    const call = { path: counting.path(model), body: JSON.stringify(counting.body({ ...request.body, model }, model)), headers: undefined };
    const response = await callUpstream(target, credential, call, signal, now);
    const answer = await readUpstreamJSON(response);
    const count = typeof answer === 'object' && answer !== null ? (answer as Record<string, unknown>)[counting.countField] : undefined;
    return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : undefined;
  } catch (error) {
    if (error instanceof GatewayError && error.code === 'UPSTREAM_AUTH_FAILED' && !isCountDenied(counting, error)) throw error;
    return undefined;
  }
}

/** A refusal of the count alone, to an identity that may still call the model. */
function isCountDenied(counting: KindTokenCount, error: GatewayError): boolean {
  const type = error.upstream?.type;
  return type !== undefined && counting.deniedTypes?.includes(type) === true;
}
