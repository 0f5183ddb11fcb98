import { GatewayError, quoteClientValue, type GenerationRequest, type Usage } from '@signalbox/core';
import { effectiveKeyLimits, type AccountStore, type KeyLimits, type Reservation } from '@signalbox/accounts';
import type { Principal } from '../auth/authenticate';
import type { Limiter, Release } from '../limits/limiter';
import type { Route } from '../routing/create-route-table';
import { priceUsage } from '../usage/compute-cost';
import { authorizeRoute } from './authorize-route';
import { chooseOutputCap, MINIMUM_OUTPUT_CAP_TOKENS, type OutputCap } from './choose-output-cap';
import { estimateInputTokens } from './estimate-input-tokens';
import { holdExpiresAt } from './hold-expiry';

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

/** How often a hold is tried again when a concurrent request took the money between reading and holding it. */
const HOLD_ATTEMPTS = 3;

/**
 * Everything between "who are you" and "call the upstream", cheapest refusal first: route access
 * (403), prompt size (413), rate and token windows (429), a concurrency slot (429, possibly after
 * queueing), then the balance hold (403 `INSUFFICIENT_BALANCE`). Whatever was taken is given back
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
  await limiter.admit(principal.key.id, limits, estimatedInputTokens);
  const release = await limiter.acquire(principal.key.id, limits, input.signal);
  let held: { reservation: Reservation; cap: OutputCap } | undefined;
  try {
    held = await holdFunds(input, estimatedInputTokens);
  } catch (error) {
    release();
    throw error;
  }
  return createAdmission(input, { estimatedInputTokens, limits, release, reservation: held?.reservation, cap: held?.cap });
}

/**
 * Holds what a priced request may cost: its estimated input plus the output cap the available
 * balance covers (`chooseOutputCap`). Refuses with `INSUFFICIENT_BALANCE` when not even the
 * smallest cap is covered. When the account as read at authentication, moments ago, covers the
 * full cap (the client's limit, else the route's `reserveOutputTokens`), that cap is held at once,
 * without reading the account again; otherwise, or when that hold fails, the balance is read, then
 * held: a concurrent request may take the money in between, so the hold is tried again on a fresh
 * reading a few times.
 */
async function holdFunds(
  input: AdmissionInput,
  estimatedInputTokens: number,
): Promise<{ reservation: Reservation; cap: OutputCap } | undefined> {
  const { route, request, principal, store } = input;
  const pricing = route.pricing;
  if (!pricing) return undefined;
  const capFor = (availableMicros: number) =>
    chooseOutputCap({ pricing, estimatedInputTokens, clientLimit: request.maxOutputTokens, reserveOutputTokens: route.reserveOutputTokens, availableMicros });
  const hold = (cap: OutputCap) =>
    store.reserve(principal.account.id, cap.holdMicros, { expiresAt: holdExpiresAt(input.now, route.deadlineMs) });
  const fullCap = capFor(Number.POSITIVE_INFINITY);
  const known = principal.account;
  if (fullCap && known.balanceMicros - known.reservedMicros >= fullCap.holdMicros) {
    const reservation = await hold(fullCap);
    if (reservation) return { reservation, cap: fullCap };
  }
  for (let attempt = 1; attempt <= HOLD_ATTEMPTS; attempt++) {
    const account = await store.getAccount(principal.account.id);
    const cap = capFor(account ? account.balanceMicros - account.reservedMicros : 0);
    if (!cap) break;
    const reservation = await hold(cap);
    if (reservation) return { reservation, cap };
  }
  throw new GatewayError({
    code: 'INSUFFICIENT_BALANCE',
    message: `The account balance is too low for this request: it does not cover the estimated input and ${MINIMUM_OUTPUT_CAP_TOKENS} output tokens. Top up, or shorten the prompt.`,
  });
}

function createAdmission(
  input: AdmissionInput,
  held: {
    estimatedInputTokens: number;
    limits: KeyLimits;
    release: Release;
    reservation: Reservation | undefined;
    cap: OutputCap | undefined;
  },
): Admission {
  let finished = false;
  return {
    estimatedInputTokens: held.estimatedInputTokens,
    outputTokensCap: held.cap?.outputTokens,
    async finish(usage, servedModel) {
      if (finished) return { reservation: undefined, costMicros: 0, cacheSavingsMicros: 0 };
      finished = true;
      held.release();
      const { pricing, targetPricing } = input.route;
      const prices = (servedModel !== undefined && targetPricing?.[servedModel]) || pricing;
      const { costMicros, cacheSavingsMicros } = usage ? priceUsage(prices, usage) : { costMicros: 0, cacheSavingsMicros: 0 };
      const extraInput = Math.max(0, (usage?.inputTokens ?? 0) - held.estimatedInputTokens);
      await input.limiter.charge(input.principal.key.id, held.limits, extraInput + (usage?.outputTokens ?? 0));
      return { reservation: held.reservation, costMicros, cacheSavingsMicros };
    },
  };
}
