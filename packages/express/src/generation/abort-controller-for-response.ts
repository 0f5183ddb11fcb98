import type { Response } from 'express';

/**
 * Aborts when the client goes away before the answer is complete, cancelling the upstream call.
 * Handed to the exchange as it is, the controller is the generation's only one: the engine aborts
 * it too, with a `GatewayError`, when it ends the request itself (deadline, shutdown).
 */
export function abortControllerForResponse(response: Response): AbortController {
  const controller = new AbortController();
  response.on('close', () => {
    if (!response.writableFinished) controller.abort(new Error('The client closed the connection.'));
  });
  return controller;
}
