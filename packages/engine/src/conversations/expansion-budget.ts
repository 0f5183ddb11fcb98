import { GatewayError } from '@signalbox/core';

/**
 * What one request may be expanded with from the stored state it names, counted in bytes of stored
 * JSON as each part is resolved — before the expanded body is built, so a refused request never
 * allocates the expansion it asked for.
 */
export type ExpansionBudget = {
  /** Counts `bytes` more, carried by the request's `param`; throws the 413 once the total passes the limit. */
  spend(bytes: number, param: string): void;
};

/** One request's budget of `limitBytes` (the config's `responseStore.maxExpansionBytes`). */
export function createExpansionBudget(limitBytes: number): ExpansionBudget {
  let spent = 0;
  return {
    spend(bytes, param) {
      spent += bytes;
      if (spent > limitBytes) throw expansionTooLarge(limitBytes, param);
    },
  };
}

function expansionTooLarge(limitBytes: number, param: string): GatewayError {
  return new GatewayError({
    code: 'REQUEST_TOO_LARGE',
    message:
      `The stored conversation state this request names expands to more than ${limitBytes} bytes, the gateway's limit ` +
      '(every response of the `previous_response_id` chain, each `item_reference` as often as it appears, and each compaction item). ' +
      'Reference fewer items, compact the conversation, or start a new one with only the items you need in `input`.',
    param,
  });
}
