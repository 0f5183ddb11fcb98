import type { FinishReason, Usage } from '@switchyard/core';
import type { UpstreamTarget } from './call-upstream';

/** What one request's attempts learned, for its usage record. Filled in as the request runs. */
export type AttemptLog = {
  attempts: number;
  target: UpstreamTarget | undefined;
  upstreamRequestId: string | undefined;
  upstreamId: string | undefined;
  finishReason: FinishReason | undefined;
  usage: Usage | undefined;
};

export function createAttemptLog(): AttemptLog {
  return {
    attempts: 0,
    target: undefined,
    upstreamRequestId: undefined,
    upstreamId: undefined,
    finishReason: undefined,
    usage: undefined,
  };
}
