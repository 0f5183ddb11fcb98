import { GatewayError, quoteClientValue, type GenerationRequest, type Usage } from '@switchyard/core';
import type { AccountStore, KeyLimits, Reservation } from '@switchyard/accounts';
import type { Principal } from '../auth/authenticate';
import type { Limiter, Release } from '../limits/limiter';
import type { Route } from '../routing/create-route-table';
import { computeCostMicros } from '../usage/compute-cost';
import { authorizeRoute } from './authorize-route';
import { estimateInputTokens } from './estimate-input-tokens';

/** An admitted request's hold on limits and money, released once by `finish`. */
export type Admission = {
  estimatedInputTokens: number;
  /** Frees the concurrency slot, settles the held money at the real cost, counts tokens. Idempotent. */
  finish(usage: Usage | undefined): Promise<number>;
};

export type AdmissionInput = {
  request: GenerationRequest;
  route: Route;
  principal: Principal;
  store: AccountStore;
  limiter: Limiter;
  defaultLimits: KeyLimits;
  signal: AbortSignal;
};

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
  const limits = { ...input.defaultLimits, ...principal.key.limits };
  await limiter.admit(principal.key.id, limits, estimatedInputTokens);
  const release = await limiter.acquire(principal.key.id, limits, input.signal);
  let reservation: Reservation | undefined;
  try {
    reservation = await holdFunds(input, estimatedInputTokens);
  } catch (error) {
    release();
    throw error;
  }
  return createAdmission(input, { estimatedInputTokens, limits, release, reservation });
}

async function holdFunds(input: AdmissionInput, estimatedInputTokens: number): Promise<Reservation | undefined> {
  const { route, request, principal, store } = input;
  if (!route.pricing) return undefined;
  const outputTokens = request.maxOutputTokens ?? route.reserveOutputTokens;
  const amount = computeCostMicros(route.pricing, {
    inputTokens: estimatedInputTokens,
    outputTokens,
    cacheReadTokens: undefined,
    cacheWriteTokens: undefined,
    reasoningTokens: undefined,
  });
  const reservation = await store.reserve(principal.account.id, amount);
  if (!reservation) {
    throw new GatewayError({
      code: 'INSUFFICIENT_BALANCE',
      message: `The account balance is too low for this request (up to ${formatMicros(amount)} may be charged). Top up, or lower max output tokens.`,
    });
  }
  return reservation;
}

function createAdmission(
  input: AdmissionInput,
  held: { estimatedInputTokens: number; limits: KeyLimits; release: Release; reservation: Reservation | undefined },
): Admission {
  let finished = false;
  return {
    estimatedInputTokens: held.estimatedInputTokens,
    async finish(usage) {
      if (finished) return 0;
      finished = true;
      held.release();
      const cost = usage ? computeCostMicros(input.route.pricing, usage) : 0;
      if (held.reservation) await input.store.settle(held.reservation, cost);
      const extraInput = Math.max(0, (usage?.inputTokens ?? 0) - held.estimatedInputTokens);
      await input.limiter.charge(input.principal.key.id, held.limits, extraInput + (usage?.outputTokens ?? 0));
      return cost;
    },
  };
}

function formatMicros(micros: number): string {
  return (micros / 1_000_000).toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}
