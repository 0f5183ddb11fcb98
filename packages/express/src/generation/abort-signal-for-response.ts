import type { Response } from 'express';

/** Aborts when the client goes away before the answer is complete, cancelling the upstream call. */
export function abortSignalForResponse(response: Response): AbortSignal {
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort(new Error('The client closed the connection.'));
  });
  return controller.signal;
}
