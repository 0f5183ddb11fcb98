import { isJSONObject, type Codec, type GenerationRequest, type JSONObject, type TranslationWarning } from '@signalbox/core';
import type { PromptCacheMode } from '../config/gateway-config';
import type { ReasoningReplay } from '../reasoning/plan-reasoning-replay';
import type { UpstreamTarget } from './upstream-target';

/** What decides the body one attempt sends. */
export type UpstreamBodyOptions = {
  inbound: Codec;
  /** The client's body as sent (with its output cap). */
  body: unknown;
  request: GenerationRequest;
  /**
   * What decoding the client's body lost in the IR: warnings for a body encoded from the IR, never
   * for the client's own body passed through (it goes with every field it has).
   */
  decodeWarnings?: readonly TranslationWarning[];
  /** The route's `promptCache`: `auto` has the target's codec place cache breakpoints. */
  promptCache?: PromptCacheMode;
  /** The request's reasoning as each upstream may receive it. */
  replay?: ReasoningReplay;
};

/** The body for one target, and whether the target's answer goes to the client as the upstream wrote it. */
export type UpstreamBody = { body: JSONObject; warnings: TranslationWarning[]; passthrough: boolean };

/**
 * The body one attempt sends: on a same-protocol route the client's own (only `model` replaced, and
 * the gateway's prompt cache key added when it has none), unless its history carries reasoning
 * another upstream signed (then the IR is encoded without it); else the IR encoded for the target.
 * A route with `promptCache: "auto"` then gets the target protocol's own cache breakpoints where the
 * body has none, and an upstream with `quirks` has its codec adjust the body for them last.
 */
export function prepareUpstreamBody(options: UpstreamBodyOptions, target: Pick<UpstreamTarget, 'name' | 'codec' | 'quirks'>, model: string): UpstreamBody {
  const { codec } = target;
  const passthrough = isPassthrough(options.inbound, codec, options.body);
  const replayed = options.replay?.requestFor(target.name);
  let body: JSONObject;
  const warnings: TranslationWarning[] = [];
  if (passthrough && replayed === undefined) {
    body = { ...(options.body as JSONObject), model };
    const key = options.request.promptCacheKey;
    if (key !== undefined && codec.setPromptCacheKey) body = codec.setPromptCacheKey(body, key);
  } else {
    const encoded = codec.encodeRequest(replayed?.value ?? options.request, model);
    body = encoded.value;
    if (options.decodeWarnings) warnings.push(...options.decodeWarnings);
    if (replayed) warnings.push(...replayed.warnings);
    warnings.push(...encoded.warnings);
  }
  if (options.promptCache === 'auto' && codec.addCacheBreakpoints) body = codec.addCacheBreakpoints(body);
  if (target.quirks !== undefined && target.quirks.length > 0 && codec.upstreamQuirks) body = codec.upstreamQuirks.apply(body, target.quirks);
  return { body, warnings, passthrough };
}

/**
 * The pass-through fast path: the upstream speaks the client's protocol, so the client's own body
 * goes upstream (unknown fields, signatures and cache prefixes untouched, only `model` replaced) and
 * the upstream's frames come back as they are, watched for usage and the terminal event.
 */
function isPassthrough(inbound: Codec, outbound: Codec, body: unknown): boolean {
  return outbound.protocol === inbound.protocol && outbound.createPassthroughStream !== undefined && isJSONObject(body);
}
