import { ClientAbortedError, GatewayError, type Codec, type GenerationRequest, type TranslationWarning } from '@signalbox/core';
import type { RetryPolicy } from '@signalbox/upstream';
import type { UpstreamHealth } from '../upstreams/create-upstream-health';
import type { PooledCredential } from '../upstreams/credential-pool';
import { releaseCredential, selectCredential, takeCredential } from '../upstreams/select-credential';
import { callUpstream, upstreamRequestId } from './call-upstream';
import { listWarnings, warningsHeader } from './format-warnings-header';
import type { FrameFormat } from './frame-format';
import type { FrameTap } from './frame-tap';
import type { AttemptStart, AttemptWatcher, ExchangeWatcher } from '../observation/engine-observer';
import { composeUpstreamCall } from './compose-upstream-call';
import { describeDroppedFlags, NO_FORWARDED_PARTS, type ForwardedRequestParts } from './forwarded-request-parts';
import type { UpstreamAnswer } from './generation-output';
import { nextAttempt, noAccountAvailable } from './next-attempt';
import { prepareUpstreamBody } from './prepare-upstream-body';
import { readUpstreamAnswer } from './read-upstream-answer';
import type { UpstreamTarget } from './upstream-target';
import type { PromptCacheMode } from '../config/gateway-config';
import type { ReasoningIssuers } from '../reasoning/create-reasoning-issuers';
import type { ReasoningReplay } from '../reasoning/plan-reasoning-replay';

export type AttemptOptions = {
  inbound: Codec;
  /** The client's body as sent: forwarded (with the upstream's model name) when the upstream speaks its protocol. */
  body: unknown;
  request: GenerationRequest;
  /** What decoding the client's body lost in the IR: listed for an attempt that sends the IR encoded, not the body itself. */
  decodeWarnings?: readonly TranslationWarning[];
  /** Warnings of every attempt (the gateway lowered the output limit). */
  warnings: readonly TranslationWarning[];
  /** The client's vendor flags and query: sent on to an upstream of its protocol, warnings for any other. */
  forwarded?: ForwardedRequestParts;
  /** The route's targets in order, each with the model name it has at that upstream. */
  targets: readonly { upstream: UpstreamTarget; model: string }[];
  policy: RetryPolicy;
  signal: AbortSignal;
  createdAt: number;
  /** The engine's view of its upstreams' health: which credential each attempt uses, and what a failure teaches. */
  health: UpstreamHealth;
  /** A credential to use at one upstream whenever it is usable there (a conversation's own), by names. */
  preferred?: { upstream: string; credential: string };
  /** The engine's clock: health is judged and learned on it. */
  now(): number;
  /** Waits between attempts; rejects when the signal aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Watches the frames a stream sends its client and may hold its end back (keeping the response). */
  frameTap?: FrameTap;
  /** Each stream message's text for the transport; default: the SSE frame. */
  formatFrame?: FrameFormat;
  /** The configured model ID of the route (for the observer). */
  route: string;
  /** Follows each attempt (`EngineObserver`), when the host watches. */
  watcher?: ExchangeWatcher;
  /** The route's `promptCache` setting. */
  promptCache?: PromptCacheMode;
  /** Which upstream issued the reasoning proofs answers carried: learned from each answer, read for each replay. */
  issuers?: ReasoningIssuers;
  /** The request's reasoning as each upstream may receive it (`planReasoningReplay` from `issuers`), shared by every attempt. */
  replay?: ReasoningReplay | undefined;
};

/** The facts of a request's attempts, for its usage row: the last target tried, with which credential, and what it was sent. */
export type Attempt = {
  target: UpstreamTarget | undefined;
  /** The credential the last attempt used; none when its target had no usable one. */
  credential: PooledCredential | undefined;
  /** `credential` counts the attempt in flight (the attempt that served does until its request settles: `releaseAttempt`). */
  holding: boolean;
  /** The last attempt's success or failure was learned by the health of its credential. */
  judged: boolean;
  /** The model ID sent to `target`. */
  model: string | undefined;
  attempts: number;
  upstreamRequestId: string | undefined;
  /** The translation warnings of the last attempt, as listed in its `x-signalbox-warnings` header. */
  warnings: readonly string[];
  /** The observer's watcher of the attempt that served, ended when the request settles. */
  watcher?: AttemptWatcher;
};

export type AttemptResult =
  | { ok: true; answer: UpstreamAnswer; attempt: Attempt }
  | { ok: false; error: GatewayError | ClientAbortedError; attempt: Attempt };

/**
 * Tries the route's targets in order, at most `policy.maxAttempts` times in all, retrying only
 * before the commit point and only failures the policy allows; each attempt on a credential its
 * target's pool selects, a rate-limited or refused one giving way at once to another of the same
 * upstream (`nextAttempt`). Returns the answer of the target that served, or the failure that
 * ended the attempts; either way with the facts of the attempts.
 */
export async function attemptTargets(options: AttemptOptions): Promise<AttemptResult> {
  const { signal, health } = options;
  const attempt: Attempt = {
    target: undefined,
    credential: undefined,
    holding: false,
    judged: false,
    model: undefined,
    attempts: 0,
    upstreamRequestId: undefined,
    warnings: [],
  };
  let index = 0;
  /** The code of the last failure that was retried. */
  let retriedCode: string | undefined;
  for (;;) {
    const { upstream: target, model } = options.targets[index]!;
    const startedAt = options.now();
    const credential = selectCredential(target.pool, startedAt, preferredAt(options, target));
    const after = retriedCode === undefined ? undefined : { errorCode: retriedCode, failover: attempt.target !== target };
    startAttempt(attempt, target, model, credential, startedAt);
    const watcher = options.watcher?.attemptStarted?.(attemptStart(options, attempt, target, model, after));
    try {
      if (!credential) throw noAccountAvailable(options.targets, startedAt);
      const answer = await answerFrom(options, target, credential, model, attempt, watcher?.headers);
      health.succeeded(credential, options.now());
      attempt.judged = true;
      if (watcher) attempt.watcher = watcher;
      return { ok: true, answer, attempt };
    } catch (error) {
      if (ClientAbortedError.isInstance(error)) {
        releaseAttempt(attempt);
        watcher?.ended?.({ kind: 'failed', error, retried: false });
        return { ok: false, error, attempt };
      }
      const failure = GatewayError.from(error);
      attempt.upstreamRequestId ??= failure.upstream?.requestId;
      // A request the gateway ended itself (its deadline, the drain) says nothing about the credential.
      const failedAt = options.now();
      if (credential && !signal.aborted) {
        health.failed(credential, failure, failedAt);
        attempt.judged = true;
      }
      releaseAttempt(attempt);
      const { targets, policy } = options;
      const next = nextAttempt(failure, { targets, policy, attempts: attempt.attempts, index, credential, now: failedAt });
      watcher?.ended?.({ kind: 'failed', error: failure, retried: next !== undefined });
      if (next === undefined) return { ok: false, error: failure, attempt };
      retriedCode = failure.code;
      index = next.index;
      if (next.delay === 'at-once') continue;
      try {
        await options.sleep(next.delay, signal);
      } catch (cause) {
        return { ok: false, error: new ClientAbortedError(cause), attempt };
      }
    }
  }
}

/** Records the start of an attempt: its target, model and credential, which counts it in flight. */
function startAttempt(attempt: Attempt, target: UpstreamTarget, model: string, credential: PooledCredential | undefined, now: number): void {
  attempt.attempts += 1;
  attempt.target = target;
  attempt.model = model;
  attempt.credential = credential;
  attempt.judged = false;
  attempt.upstreamRequestId = undefined;
  attempt.warnings = [];
  if (!credential) return;
  takeCredential(credential, now);
  attempt.holding = true;
}

/** The attempt no longer holds its credential: once it failed, or once the request it served settled. A second call does nothing. */
export function releaseAttempt(attempt: Attempt | undefined): void {
  if (!attempt?.holding) return;
  attempt.holding = false;
  releaseCredential(attempt.credential!, attempt.judged);
}

/** The caller's preferred credential, when it is for this target's upstream. */
function preferredAt(options: AttemptOptions, target: UpstreamTarget): string | undefined {
  return options.preferred?.upstream === target.name ? options.preferred.credential : undefined;
}

function attemptStart(
  options: AttemptOptions,
  attempt: Attempt,
  target: UpstreamTarget,
  model: string,
  after: AttemptStart['after'],
): AttemptStart {
  return {
    number: attempt.attempts,
    route: options.route,
    upstream: target.name,
    ...(attempt.credential && { credential: attempt.credential.name }),
    protocol: target.codec.protocol,
    vendor: target.codec.descriptor.vendor,
    model,
    ...(after && { after }),
  };
}

/** One attempt: encode for the target (or pass the client's body through), call, read the answer. */
async function answerFrom(
  options: AttemptOptions,
  target: UpstreamTarget,
  credential: PooledCredential,
  model: string,
  attempt: Attempt,
  observerHeaders: Readonly<Record<string, string>> | undefined,
): Promise<UpstreamAnswer> {
  const { body, warnings, passthrough } = prepareUpstreamBody(options, target, model);
  const forwarded = options.forwarded ?? NO_FORWARDED_PARTS;
  const sameProtocol = target.codec.protocol === options.inbound.protocol;
  attempt.warnings = listWarnings([
    ...options.warnings,
    ...warnings,
    ...droppedOptions(options.inbound, target.codec, options.request),
    ...(sameProtocol ? [] : describeDroppedFlags(forwarded)),
  ]);
  const headers = warningsHeader(attempt.warnings);
  const call = composeUpstreamCall(target, credential, body, { model, stream: options.request.stream, forwarded: sameProtocol ? forwarded : undefined, observerHeaders });
  const response = await callUpstream(target, credential, call, options.signal, options.now());
  attempt.upstreamRequestId = upstreamRequestId(target, response);
  return readUpstreamAnswer({ options, target, response, passthrough, headers });
}

/** Warnings for the client protocol's own fields when the upstream speaks another protocol. */
function droppedOptions(inbound: Codec, outbound: Codec, request: GenerationRequest): TranslationWarning[] {
  if (outbound.protocol === inbound.protocol) return [];
  const own = request.providerOptions?.[inbound.protocol];
  return own && inbound.describeDroppedOptions ? inbound.describeDroppedOptions(own) : [];
}
