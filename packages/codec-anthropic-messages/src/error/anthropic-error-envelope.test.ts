import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createUpstreamError, GatewayError, type GatewayErrorCode } from '@signalbox/core';
import {
  decodeAnthropicError,
  encodeAnthropicError,
  mapAnthropicErrorType,
} from './anthropic-error-envelope';

describe('encodeAnthropicError', () => {
  it.each<[GatewayErrorCode, number, string]>([
    ['INVALID_REQUEST', 400, 'invalid_request_error'],
    ['API_KEY_INVALID', 401, 'authentication_error'],
    ['MODEL_NOT_ALLOWED', 403, 'permission_error'],
    ['MODEL_NOT_FOUND', 404, 'not_found_error'],
    ['PROMPT_TOO_LARGE', 413, 'request_too_large'],
    ['RATE_LIMITED', 429, 'rate_limit_error'],
    ['INTERNAL_ERROR', 500, 'api_error'],
    ['UPSTREAM_FAILED', 502, 'api_error'],
    ['UPSTREAM_OVERLOADED', 503, 'overloaded_error'],
    ['NO_ACCOUNT_AVAILABLE', 503, 'api_error'],
    ['UPSTREAM_TIMEOUT', 504, 'timeout_error'],
  ])('renders %s as %i %s', (code, status, type) => {
    const error = new GatewayError({ code, message: 'Something happened.' });
    expect(encodeAnthropicError(error, 'req_1')).toEqual({
      status,
      body: { type: 'error', error: { type, message: 'Something happened.' }, request_id: 'req_1', code },
    });
  });

  it.each([
    [402, 'billing_error'],
    [405, 'invalid_request_error'],
    [415, 'invalid_request_error'],
    [422, 'invalid_request_error'],
    [501, 'api_error'],
  ])('maps status %i to %s', (status, type) => {
    expect(mapAnthropicErrorType(status)).toBe(type);
  });

  it('never renders the cause', () => {
    const error = new GatewayError({
      code: 'INTERNAL_ERROR',
      message: 'Internal gateway error.',
      cause: new Error('secret detail'),
    });
    expect(JSON.stringify(encodeAnthropicError(error, 'req_1'))).not.toContain('secret');
  });
});

describe('decodeAnthropicError', () => {
  it('reads the Anthropic envelope', () => {
    const body = JSON.parse(
      readFileSync(join(__dirname, '../__fixtures__/error-rate-limit.1.error.json'), 'utf8'),
    ) as unknown;
    expect(decodeAnthropicError(body)).toEqual({
      type: 'rate_limit_error',
      message: "This request would exceed your organization's rate limit.",
      requestId: 'req_01SyntheticRateLimit',
    });
  });

  it('reads the newer details.error_code as the code', () => {
    const body = {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'Too big',
        details: { error_code: 'image_dimensions_too_large' },
      },
    };
    expect(decodeAnthropicError(body)).toEqual({
      type: 'invalid_request_error',
      message: 'Too big',
      code: 'image_dimensions_too_large',
    });
  });

  it.each([
    [
      'a JSON string',
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      { type: 'overloaded_error', message: 'Overloaded' },
    ],
    ['plain text', '  <html>Bad Gateway</html>  ', { message: '<html>Bad Gateway</html>' }],
    ['an empty string', '', {}],
    [
      'an OpenAI envelope',
      { error: { message: 'Nope', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } },
      { message: 'Nope', type: 'invalid_request_error', param: 'model', code: 'model_not_found' },
    ],
    ['null', null, {}],
  ])('reads %s', (_name, body, expected) => {
    expect(decodeAnthropicError(body)).toEqual(expected);
  });

  it('feeds createUpstreamError so an overload stays an overload', () => {
    const details = decodeAnthropicError({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    const error = createUpstreamError({ ...details, status: 529 });
    expect(encodeAnthropicError(error, 'req_2').body).toMatchObject({
      error: { type: 'overloaded_error' },
      code: 'UPSTREAM_OVERLOADED',
    });
  });
});
