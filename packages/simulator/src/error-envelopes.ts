import type { SimulatorError } from './simulator-error';

/** `{error:{message,type,param,code}}`, the envelope of both OpenAI paths. */
export type OpenAIErrorBody = { error: { message: string; type: string; param: string | null; code: string | null } };

/** `{type:'error', error:{type,message}, request_id}`, the Messages envelope. */
export type AnthropicErrorBody = { type: 'error'; error: { type: string; message: string }; request_id: string | null };

/**
 * OpenAI envelope for an error; type and code follow the status unless the error names them
 * (OpenAI publishes no complete status-to-type table, so the defaults are the common ones).
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export function openAIErrorBody(error: SimulatorError): OpenAIErrorBody {
  const defaults = openAITypeAndCode(error.status);
  return {
    error: {
      message: error.message,
      type: error.type ?? defaults.type,
      param: error.param ?? null,
      code: error.code === undefined ? defaults.code : error.code,
    },
  };
}

/** Anthropic envelope for an error; `error.type` follows the status unless the error names it. */
export function anthropicErrorBody(error: SimulatorError, requestId: string): AnthropicErrorBody {
  return { type: 'error', error: { type: error.type ?? anthropicErrorType(error.status), message: error.message }, request_id: requestId };
}

/**
 * Anthropic `error.type` for an HTTP status, from Anthropic's published status table.
 * @see https://docs.anthropic.com/en/api/errors
 */
export function anthropicErrorType(status: number): string {
  switch (status) {
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 409:
      return 'conflict_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

function openAITypeAndCode(status: number): { type: string; code: string | null } {
  switch (status) {
    case 401:
      return { type: 'invalid_request_error', code: 'invalid_api_key' };
    case 403:
      return { type: 'permission_error', code: null };
    case 404:
      return { type: 'invalid_request_error', code: 'not_found' };
    case 409:
      return { type: 'conflict', code: null };
    case 413:
      return { type: 'invalid_request_error', code: 'request_too_large' };
    case 429:
      return { type: 'rate_limit_error', code: 'rate_limit_exceeded' };
    case 503:
    case 529:
      return { type: 'server_error', code: 'server_is_overloaded' };
    case 504:
      return { type: 'server_error', code: 'timeout' };
    default:
      return { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
  }
}

/** `retry-after` seconds worth sending with a status (the SDKs retry these), or undefined. */
export function retryAfterSeconds(status: number): number | undefined {
  return status === 429 || status === 503 || status === 529 ? 1 : undefined;
}
