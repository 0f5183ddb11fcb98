import type { FinishReason, GatewayError } from '@switchyard/core';
import type { RequestOutcome } from './usage-record';

/** The usage view's outcome for a finished generation. */
export function outcomeOf(finishReason: FinishReason | undefined, error: GatewayError | undefined): RequestOutcome {
  if (error) return 'failed';
  if (!finishReason) return 'failed';
  if (finishReason.unified === 'length' || finishReason.unified === 'content-filter') return 'incomplete';
  if (finishReason.unified === 'error') return 'failed';
  return 'completed';
}
