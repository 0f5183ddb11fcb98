import { GATEWAY_ERROR_CODES, GatewayError, type GatewayErrorCode } from '@signalbox/core';
import { decodeGeminiError, encodeGeminiError, GEMINI_STATUS_NAMES } from './gemini-error-envelope';

/** The canonical codes and the HTTP status Google answers each with (google.rpc.Code). */
const CANONICAL: Record<string, number[]> = {
  INVALID_ARGUMENT: [400, 413, 431, 415],
  FAILED_PRECONDITION: [400, 409, 426],
  UNAUTHENTICATED: [401],
  PERMISSION_DENIED: [403],
  NOT_FOUND: [404],
  RESOURCE_EXHAUSTED: [429],
  ABORTED: [409],
  INTERNAL: [500, 502],
  UNAVAILABLE: [502, 503],
  DEADLINE_EXCEEDED: [408, 504],
};

/** The status name of every code: what Google's clients switch on, so a change here is a change of the API. */
const STATUS_NAMES: Record<GatewayErrorCode, string> = {
  INVALID_REQUEST: 'INVALID_ARGUMENT',
  INVALID_JSON: 'INVALID_ARGUMENT',
  UNSUPPORTED_PARAMETER: 'INVALID_ARGUMENT',
  VERSION_HEADER_MISSING: 'INVALID_ARGUMENT',
  VERSION_HEADER_INVALID: 'INVALID_ARGUMENT',
  INTERFACE_NOT_SUPPORTED: 'FAILED_PRECONDITION',
  API_KEY_MISSING: 'UNAUTHENTICATED',
  API_KEY_INVALID: 'UNAUTHENTICATED',
  API_KEY_DISABLED: 'UNAUTHENTICATED',
  API_KEY_EXPIRED: 'PERMISSION_DENIED',
  MODEL_NOT_ALLOWED: 'PERMISSION_DENIED',
  GROUP_NOT_ALLOWED: 'PERMISSION_DENIED',
  SUBSCRIPTION_INACTIVE: 'PERMISSION_DENIED',
  INSUFFICIENT_BALANCE: 'PERMISSION_DENIED',
  ADMIN_TOKEN_MISSING: 'UNAUTHENTICATED',
  ADMIN_TOKEN_INVALID: 'UNAUTHENTICATED',
  ADMIN_TOKEN_REQUIRED: 'PERMISSION_DENIED',
  CONSOLE_ROLE_FORBIDDEN: 'PERMISSION_DENIED',
  SSO_LOGIN_FAILED: 'INVALID_ARGUMENT',
  SSO_REFUSED: 'PERMISSION_DENIED',
  PANEL_SESSION_MISSING: 'UNAUTHENTICATED',
  PANEL_REQUEST_FORBIDDEN: 'PERMISSION_DENIED',
  ENDPOINT_NOT_FOUND: 'NOT_FOUND',
  RESOURCE_NOT_FOUND: 'NOT_FOUND',
  MODEL_NOT_FOUND: 'NOT_FOUND',
  REQUEST_TIMEOUT: 'DEADLINE_EXCEEDED',
  KEY_LIMITS_ABOVE_CEILING: 'FAILED_PRECONDITION',
  CONFIG_READ_ONLY: 'FAILED_PRECONDITION',
  CONFIG_VERSION_CONFLICT: 'ABORTED',
  REQUEST_TOO_LARGE: 'INVALID_ARGUMENT',
  UNSUPPORTED_CONTENT_ENCODING: 'INVALID_ARGUMENT',
  WEBSOCKET_NOT_SUPPORTED: 'FAILED_PRECONDITION',
  WEBSOCKET_RESPONSE_IN_PROGRESS: 'ABORTED',
  WEBSOCKET_CONNECTION_LIMIT_REACHED: 'FAILED_PRECONDITION',
  WEBSOCKET_SOCKETS_LIMITED: 'RESOURCE_EXHAUSTED',
  PROMPT_TOO_LARGE: 'INVALID_ARGUMENT',
  HEADERS_TOO_LARGE: 'INVALID_ARGUMENT',
  RATE_LIMITED: 'RESOURCE_EXHAUSTED',
  CONCURRENCY_LIMITED: 'RESOURCE_EXHAUSTED',
  QUEUE_FULL: 'RESOURCE_EXHAUSTED',
  QUOTA_EXCEEDED: 'RESOURCE_EXHAUSTED',
  BUDGET_EXCEEDED: 'RESOURCE_EXHAUSTED',
  PANEL_SESSIONS_FULL: 'RESOURCE_EXHAUSTED',
  INTERNAL_ERROR: 'INTERNAL',
  UPSTREAM_INVALID_REQUEST: 'INVALID_ARGUMENT',
  UPSTREAM_RATE_LIMITED: 'RESOURCE_EXHAUSTED',
  UPSTREAM_AUTH_FAILED: 'INTERNAL',
  UPSTREAM_UNREACHABLE: 'UNAVAILABLE',
  UPSTREAM_FAILED: 'INTERNAL',
  NO_ACCOUNT_AVAILABLE: 'UNAVAILABLE',
  SHUTTING_DOWN: 'UNAVAILABLE',
  LIMITER_UNAVAILABLE: 'UNAVAILABLE',
  STORE_UNAVAILABLE: 'UNAVAILABLE',
  SSO_UNAVAILABLE: 'UNAVAILABLE',
  UPSTREAM_OVERLOADED: 'UNAVAILABLE',
  UPSTREAM_TIMEOUT: 'DEADLINE_EXCEEDED',
};

describe('the Gemini error envelope', () => {
  it('names every code as before, from its HTTP status or its override', () => {
    expect(GEMINI_STATUS_NAMES).toEqual(STATUS_NAMES);
  });

  it.each(Object.keys(GATEWAY_ERROR_CODES) as GatewayErrorCode[])('renders %s with a canonical status name, its reason and the request id', code => {
    const error = new GatewayError({ code, message: 'What went wrong.', param: 'contents.0' });
    const { status, body } = encodeGeminiError(error, 'req_abc');
    expect(status).toBe(GATEWAY_ERROR_CODES[code].status);
    expect(CANONICAL[GEMINI_STATUS_NAMES[code]]).toContain(status);
    expect(body).toEqual({
      error: {
        code: status,
        message: 'What went wrong.',
        status: GEMINI_STATUS_NAMES[code],
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code, domain: 'signalbox', metadata: { service_code: code, param: 'contents.0' } },
          { '@type': 'type.googleapis.com/google.rpc.RequestInfo', requestId: 'req_abc' },
        ],
      },
      code,
      request_id: 'req_abc',
    });
  });

  it("reads Google's envelope, an array of one, and text", () => {
    const google = {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }],
      },
    };
    const details = { message: 'API key not valid. Please pass a valid API key.', type: 'INVALID_ARGUMENT', code: 'API_KEY_INVALID' };
    expect(decodeGeminiError(google)).toEqual(details);
    expect(decodeGeminiError([google])).toEqual(details);
    expect(decodeGeminiError('<html>Bad gateway</html>')).toEqual({ message: '<html>Bad gateway</html>' });
    expect(decodeGeminiError(null)).toEqual({});
  });
});
