import type { FinishReason } from '../generation/finish-reason';
import { GatewayError } from './gateway-error';

/**
 * The `UPSTREAM_FAILED` error for an answer its upstream ended unfinished (the IR's `error` finish:
 * Anthropic's `pause_turn`, a cancelled Response), `undefined` for any other finish. Only a client
 * of the upstream's own protocol can continue such a turn; in another protocol any terminal would
 * read as a complete answer, so a translated route refuses it with this error.
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
export function unfinishedAnswerError(finishReason: FinishReason): GatewayError | undefined {
  if (finishReason.unified !== 'error') return undefined;
  const raw = finishReason.raw ?? 'error';
  return new GatewayError({
    code: 'UPSTREAM_FAILED',
    message: `The upstream ended the turn unfinished ('${raw}'); only a client of the upstream's protocol can continue it.`,
    upstream: { type: raw },
  });
}
