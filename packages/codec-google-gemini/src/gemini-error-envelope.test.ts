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

describe('the Gemini error envelope', () => {
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
