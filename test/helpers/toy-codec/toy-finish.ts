import type { FinishReason } from '@signalbox/core';
import type { ToyFinish } from './toy-wire';

/** The toy's finish word for the IR's reason: it knows only a clean stop and the length limit. */
export function encodeToyFinish(reason: FinishReason): ToyFinish {
  if (reason.unified === 'stop') return 'stop';
  if (reason.unified === 'length') return 'length';
  return 'other';
}

export function decodeToyFinish(finish: ToyFinish): FinishReason {
  return { unified: finish, raw: finish };
}
