import { GatewayError } from '../errors/gateway-error';

const SUCCEEDED = 'expected a GatewayError, but the call succeeded';

/** The `GatewayError` that `call` throws, for exact assertions; anything else it throws is rethrown, and success fails the test. */
export function gatewayErrorOf(call: () => unknown): GatewayError {
  try {
    call();
  } catch (error) {
    return onlyGatewayError(error);
  }
  throw new Error(SUCCEEDED);
}

/** The `GatewayError` that `call` throws or rejects with, held to the same contract as `gatewayErrorOf`. */
export async function gatewayErrorOfAsync(call: () => unknown): Promise<GatewayError> {
  try {
    await call();
  } catch (error) {
    return onlyGatewayError(error);
  }
  throw new Error(SUCCEEDED);
}

function onlyGatewayError(error: unknown): GatewayError {
  if (GatewayError.isInstance(error)) return error;
  throw error;
}
