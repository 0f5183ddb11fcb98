import { GatewayError, quoteClientValue, type GenerationRequest, type Usage } from '@signalbox/core';
import { effectiveKeyLimits, type AccountStore, type KeyLimits, type Reservation } from '@signalbox/accounts';
import type { Principal } from '../auth/authenticate';
import type { Limiter, Release } from '../limits/limiter';
import type { Route } from '../routing/create-route-table';
import { priceUsage } from '../usage/compute-cost';
import { authorizeRoute } from './authorize-route';
import type { OutputCap } from './choose-output-cap';
import { estimateInputTokens } from './estimate-input-tokens';
import { holdFunds } from './hold-funds';

/** What a finished request cost and what of it was charged. */
export type Charge = {
  /** What the account was charged, in micro-units: the real cost, capped at the hold. */
  costMicros: number;
  /** The part of the real cost the hold did not cover (an upstream that ignored its output cap). */
  uncoveredMicros: number;
  /** What the prompt cache saved, in micro-units (`priceUsage`). */
  cacheSavingsMicros: number;
};

/**
 * What a finished request leaves to settle: its hold (absent when nothing was held, or on a second
 * `finish`) and its real cost, which the usage writer commits with the request's row.
 */
export type PendingCharge = {
  reservation: Reservation | undefined;
  /** The real cost in micro-units; the store charges at most the hold of it. */
  costMicros: number;
  /** What the prompt cache saved, in micro-units. */
  cacheSavingsMicros: number;
};

/** An admitted request's hold on limits and money, released once by `finish`. */
export type Admission = {
  estimatedInputTokens: number;
  /**
   * The output cap the upstream must be given (priced routes): the hold covers the estimated input
   * plus this many output tokens. `undefined` on an unpriced route, where the client's limit stands.
   */
  outputTokensCap: number | undefined;
  /**
   * Frees the concurrency slot and counts tokens at once, and returns the hold with the real cost
   * (at the prices of `servedModel`, the upstream model that served, when the route knows them) for
   * the usage writer to settle (in the transaction that writes the request's row). Idempotent:
   * a second call returns no hold and no cost.
   */
  finish(usage: Usage | undefined, servedModel?: string): Promise<PendingCharge>;
};

export type AdmissionInput = {
  request: GenerationRequest;
  route: Route;
  principal: Principal;
  store: AccountStore;
  limiter: Limiter;
  defaultLimits: KeyLimits;
  signal: AbortSignal;
  /** The engine's clock: the hold expires a deadline (plus a margin) after it. */
  now: number;
};

/**
 * Everything between "who are you" and "call the upstream", cheapest refusal first: route access
 * (403), prompt size (413), rate and token windows (429), a concurrency slot (429, possibly after
 * queueing), then the balance and budget hold (403 `INSUFFICIENT_BALANCE`, 429 `BUDGET_EXCEEDED`). Whatever was taken is given back
 * when a later step refuses.
 */
export async function admitRequest(input: AdmissionInput): Promise<Admission> {
  const { request, route, principal, limiter } = input;
  authorizeRoute(principal, route);
  const estimatedInputTokens = estimateInputTokens(request);
  if (route.contextTokens !== undefined && estimatedInputTokens > route.contextTokens) {
    throw new GatewayError({
      code: 'PROMPT_TOO_LARGE',
      message: `The prompt is about ${estimatedInputTokens} tokens (estimated), over the ${route.contextTokens}-token context of ${quoteClientValue(route.model)}. Shorten it and retry.`,
    });
  }
  const limits = effectiveKeyLimits(input.defaultLimits, principal.account, principal.key);
  const release = await enterLimits(limiter, principal.key.id, limits, estimatedInputTokens, input.signal);
  let held: { reservation: Reservation; cap: OutputCap } | undefined;
  try {
    held = await holdFunds(input, estimatedInputTokens);
  } catch (error) {
    release();
    throw error;
  }
  return new HeldAdmission(route, limiter, principal.key.id, { estimatedInputTokens, limits, release, reservation: held?.reservation, cap: held?.cap });
}

/** The key's windows, then a concurrency slot: in one step, the limiter's own promise, when the limiter has one. */
function enterLimits(limiter: Limiter, keyId: string, limits: KeyLimits, estimatedTokens: number, signal: AbortSignal): Promise<Release> {
  if (limiter.admitAndAcquire) return limiter.admitAndAcquire(keyId, limits, estimatedTokens, signal);
  return admitThenAcquire(limiter, keyId, limits, estimatedTokens, signal);
}

async function admitThenAcquire(limiter: Limiter, keyId: string, limits: KeyLimits, estimatedTokens: number, signal: AbortSignal): Promise<Release> {
  await limiter.admit(keyId, limits, estimatedTokens);
  return limiter.acquire(keyId, limits, signal);
}

/** What an admission took: its estimate, the key's limits, its concurrency slot and its hold. */
type Held = {
  estimatedInputTokens: number;
  limits: KeyLimits;
  release: Release;
  reservation: Reservation | undefined;
  cap: OutputCap | undefined;
};

/**
 * An admission as one object, its `finish` on the prototype: an open stream holds what settling it
 * needs (the route's prices, the limiter, the key, the hold), not a closure over the whole input.
 */
class HeldAdmission implements Admission {
  readonly estimatedInputTokens: number;
  readonly outputTokensCap: number | undefined;
  readonly #route: Route;
  readonly #limiter: Limiter;
  readonly #keyId: string;
  readonly #held: Held;
  #finished = false;

  constructor(route: Route, limiter: Limiter, keyId: string, held: Held) {
    this.estimatedInputTokens = held.estimatedInputTokens;
    this.outputTokensCap = held.cap?.outputTokens;
    this.#route = route;
    this.#limiter = limiter;
    this.#keyId = keyId;
    this.#held = held;
  }

  async finish(usage: Usage | undefined, servedModel?: string): Promise<PendingCharge> {
    if (this.#finished) return { reservation: undefined, costMicros: 0, cacheSavingsMicros: 0 };
    this.#finished = true;
    const held = this.#held;
    held.release();
    const { pricing, targetPricing } = this.#route;
    const prices = (servedModel !== undefined && targetPricing?.[servedModel]) || pricing;
    const { costMicros, cacheSavingsMicros } = usage ? priceUsage(prices, usage) : { costMicros: 0, cacheSavingsMicros: 0 };
    const extraInput = Math.max(0, (usage?.inputTokens ?? 0) - held.estimatedInputTokens);
    await this.#limiter.charge(this.#keyId, held.limits, extraInput + (usage?.outputTokens ?? 0));
    return { reservation: held.reservation, costMicros, cacheSavingsMicros };
  }
}
