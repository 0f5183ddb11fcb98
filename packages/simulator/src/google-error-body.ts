import type { SimulatorError } from './simulator-error';

/** One entry of a Google error's `details`: an `ErrorInfo`, `RetryInfo` or other `google.rpc` message. */
export type GoogleErrorDetail = { '@type': string; [field: string]: unknown };

/** `{error:{code,message,status,details?}}`, the envelope of Google's APIs (Gemini, Vertex AI). */
export type GoogleErrorBody = { error: { code: number; message: string; status: string; details?: GoogleErrorDetail[] } };

/**
 * Google envelope for an error: `status` is the canonical code name of the HTTP status unless the
 * error names it (`type`); an error with a `code` gets an `ErrorInfo` detail with that reason.
 * @see https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
 * @see https://cloud.google.com/apis/design/errors#handling_errors
 */
export function googleErrorBody(error: SimulatorError, details: GoogleErrorDetail[] = []): GoogleErrorBody {
  const all = typeof error.code === 'string' ? [errorInfo(error.code), ...details] : details;
  const body: GoogleErrorBody['error'] = { code: error.status, message: error.message, status: error.type ?? googleStatus(error.status) };
  if (all.length > 0) body.details = all;
  return { error: body };
}

/** The canonical status name Google pairs with an HTTP status. */
export function googleStatus(status: number): string {
  switch (status) {
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'PERMISSION_DENIED';
    case 404:
      return 'NOT_FOUND';
    case 409:
      return 'ABORTED';
    case 429:
      return 'RESOURCE_EXHAUSTED';
    case 499:
      return 'CANCELLED';
    case 501:
      return 'UNIMPLEMENTED';
    case 503:
    case 529:
      return 'UNAVAILABLE';
    case 504:
      return 'DEADLINE_EXCEEDED';
    default:
      return status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT';
  }
}

function errorInfo(reason: string): GoogleErrorDetail {
  return { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } };
}
