import type { EncodedError, GatewayError, UpstreamErrorDetails } from '@signalbox/core';
import { toyFailureSchema } from './toy-wire';

/** What a toy upstream's error body says: its failure envelope, or the start of whatever text it sent. */
export function decodeToyError(body: unknown): UpstreamErrorDetails {
  const parsed = toyFailureSchema.safeParse(body);
  if (!parsed.success) return { message: typeof body === 'string' ? body.slice(0, 200) : 'The toy upstream failed without a failure envelope.' };
  const { code, message, request_id: requestId } = parsed.data.failure;
  return { code, message, ...(requestId !== undefined && { requestId }) };
}

/** The toy envelope: `{ failure: { code, message, request_id } }` with the gateway's status. */
export function encodeToyError(error: GatewayError, requestId: string): EncodedError {
  return { status: error.status, body: { failure: { code: error.code, message: error.message, request_id: requestId } } };
}
