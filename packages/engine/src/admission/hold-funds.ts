import { GatewayError } from '@signalbox/core';
import { budgetPeriodEnd, budgetRoomMicros, tightestBudget, type Budget, type Reservation } from '@signalbox/accounts';
import type { AdmissionInput } from './admit-request';
import { chooseOutputCap, MINIMUM_OUTPUT_CAP_TOKENS, type OutputCap } from './choose-output-cap';
import { holdExpiresAt } from './hold-expiry';

/** How often a hold is tried again when a concurrent request took the money between reading and holding it. */
const HOLD_ATTEMPTS = 3;

/**
 * Holds what a priced request may cost: its estimated input plus the output cap the available
 * balance, and the key's and account's budgets, cover (`chooseOutputCap`). When the account as read
 * at authentication covers the full cap (the client's limit, else the route's
 * `reserveOutputTokens`), that cap is held at once, without reading anything again; otherwise, or
 * when that hold fails, the balance is read (and, once a hold was refused, the budgets), then held:
 * a concurrent request may take the money in between, so this is tried a few times. Refuses with
 * `BUDGET_EXCEEDED` (429, `Retry-After` = when the tightest budget renews) when a budget leaves less
 * room than the balance, else `INSUFFICIENT_BALANCE`, when not even the smallest cap is covered.
 */
export async function holdFunds(
  input: AdmissionInput,
  estimatedInputTokens: number,
): Promise<{ reservation: Reservation; cap: OutputCap } | undefined> {
  const { route, request, principal, store } = input;
  const pricing = route.pricing;
  if (!pricing) return undefined;
  const keyId = principal.key.id;
  const capFor = (availableMicros: number) =>
    chooseOutputCap({ pricing, estimatedInputTokens, clientLimit: request.maxOutputTokens, reserveOutputTokens: route.reserveOutputTokens, availableMicros });
  const hold = (cap: OutputCap) =>
    store.reserve(principal.account.id, cap.holdMicros, { expiresAt: holdExpiresAt(input.now, route.deadlineMs), keyId });
  const fullCap = capFor(Number.POSITIVE_INFINITY);
  const known = principal.account;
  let refused = false;
  if (fullCap && known.balanceMicros - known.reservedMicros >= fullCap.holdMicros) {
    const reservation = await hold(fullCap);
    if (reservation) return { reservation, cap: fullCap };
    refused = true;
  }
  let budget: Budget | undefined;
  for (let attempt = 1; attempt <= HOLD_ATTEMPTS; attempt++) {
    const [account, budgets] = await Promise.all([
      store.getAccount(principal.account.id),
      refused ? store.listBudgets(principal.account.id) : undefined,
    ]);
    const balanceRoom = account ? account.balanceMicros - account.reservedMicros : 0;
    budget = budgets && tightestBudget(budgets, keyId);
    const room = Math.min(balanceRoom, budget ? budgetRoomMicros(budget) : Number.POSITIVE_INFINITY);
    if (budget && budgetRoomMicros(budget) >= balanceRoom) budget = undefined;
    const cap = capFor(room);
    if (!cap) break;
    const reservation = await hold(cap);
    if (reservation) return { reservation, cap };
    refused = true;
  }
  throw budget ? budgetRefusal(budget, input.now) : balanceRefusal();
}

function balanceRefusal(): GatewayError {
  return new GatewayError({
    code: 'INSUFFICIENT_BALANCE',
    message: `The account balance is too low for this request: it does not cover the estimated input and ${MINIMUM_OUTPUT_CAP_TOKENS} output tokens. Top up, or shorten the prompt.`,
  });
}

/** `BUDGET_EXCEEDED`, with `Retry-After` = when the budget's period ends. */
function budgetRefusal(budget: Budget, now: number): GatewayError {
  const whose = budget.keyId === undefined ? "The account's" : "This key's";
  const renews = budgetPeriodEnd(budget.period, budget.periodStart);
  return new GatewayError({
    code: 'BUDGET_EXCEEDED',
    message: `${whose} ${budget.period === 'day' ? 'daily' : 'monthly'} budget does not cover this request: it does not leave room for the estimated input and ${MINIMUM_OUTPUT_CAP_TOKENS} output tokens. It renews at ${new Date(renews).toISOString()}.`,
    retryAfterMs: Math.max(1000, renews - now),
  });
}
