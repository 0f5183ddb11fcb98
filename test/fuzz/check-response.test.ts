import { findResponseProblems } from './check-response';
import { expectedEnvelopes } from './expected-envelopes';
import { endpointNamed } from './fuzz-endpoints';
import type { RawRequest, RawResponse } from './send-raw-request';

// The fuzz properties are only as strong as this checker: each rule must reject a bad answer.
const REQUEST_ID = 'req_ABCDEFGHIJKLMNOPQRSTUVWX';
const SECRET = `sbx-${'Q'.repeat(40)}`; // key-shaped, built at run time (no key-like literal in source)
const post = (
  path: string,
  headers: Array<[string, string]> = [],
  body = '{"model":"m","input":"hi"}',
): RawRequest => ({
  method: 'POST',
  path,
  headers,
  body: Buffer.from(body),
});
const answer = (status: number, body: unknown, headers: Record<string, string> = {}): RawResponse => {
  const all = { 'x-request-id': REQUEST_ID, 'content-type': 'application/json; charset=utf-8', ...headers };
  return {
    status,
    headers: all,
    rawHeaders: Object.entries(all).flat(),
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  };
};
const openAIRefusal = (code = 'INVALID_REQUEST', type = 'invalid_request_error') => ({
  error: { message: 'Bad.', type, param: null, code: code.toLowerCase() },
  code,
  request_id: REQUEST_ID,
});
const messagesRefusal = {
  type: 'error',
  error: { type: 'invalid_request_error', message: 'Bad.' },
  code: 'INVALID_REQUEST',
  request_id: REQUEST_ID,
};

describe('findResponseProblems', () => {
  it('accepts a sound refusal in each envelope', () => {
    expect(findResponseProblems(post('/v1/responses'), answer(400, openAIRefusal()))).toEqual([]);
    expect(
      findResponseProblems(post('/v1/messages'), answer(400, messagesRefusal, { 'request-id': REQUEST_ID })),
    ).toEqual([]);
  });

  it.each([
    ['a 500', answer(500, openAIRefusal('INTERNAL_ERROR', 'server_error')), /status 500/],
    ['a body that is not JSON', answer(400, 'Bad Request'), /not a JSON object/],
    [
      'no request id header',
      { ...answer(400, openAIRefusal()), headers: { 'content-type': 'application/json' } },
      /x-request-id/,
    ],
    [
      'a request_id that differs from the header',
      answer(400, { ...openAIRefusal(), request_id: 'req_other' }),
      /request_id/,
    ],
    ['an unknown service code', answer(400, openAIRefusal('NOPE')), /not a service code/],
    ['a code with another status', answer(400, openAIRefusal('MODEL_NOT_FOUND')), /has status 404/],
    ["the other protocol's envelope", answer(400, messagesRefusal), /messages envelope where openai/],
    [
      'an error.type that does not fit the status',
      answer(401, openAIRefusal('API_KEY_INVALID')),
      /error.type invalid_request_error for 401/,
    ],
    ['a secret in the body', answer(400, { ...openAIRefusal(), echo: SECRET }), /body contains the secret/],
  ])('rejects %s', (_case, response, problem) => {
    const problems = findResponseProblems(post('/v1/responses'), response, { secrets: [SECRET] });
    expect(problems.join('; ')).toMatch(problem);
  });

  it('rejects a secret in a header, and a body secret in a refusal but not in a success', () => {
    const inHeader = answer(400, openAIRefusal(), { 'x-echo': SECRET });
    expect(findResponseProblems(post('/v1/responses'), inHeader, { refusalSecrets: [SECRET] })).toEqual([
      expect.stringMatching(/header contains/),
    ]);
    const success = answer(200, { output_text: SECRET });
    expect(findResponseProblems(post('/v1/responses'), success, { refusalSecrets: [SECRET] })).toEqual([]);
    expect(findResponseProblems(post('/v1/responses'), success, { secrets: [SECRET] })).toEqual([
      expect.stringMatching(/body contains/),
    ]);
  });

  it('rejects a stream: true success that is JSON, or a stream without its terminal event', () => {
    const streaming = post('/v1/responses', [], '{"model":"m","input":"hi","stream":true}');
    const endpoint = endpointNamed('responses');
    expect(findResponseProblems(streaming, answer(200, { ok: true }), { endpoint })).toEqual([
      expect.stringMatching(/content-type application\/json/),
    ]);
    const cut = answer(200, 'event: response.created\ndata: {"type":"response.created"}\n\n', {
      'content-type': 'text/event-stream',
    });
    expect(findResponseProblems(streaming, cut, { endpoint })).toEqual([
      expect.stringMatching(/terminal event|stream:/),
    ]);
  });
});

describe('expectedEnvelopes', () => {
  it.each([
    ['POST', '/v1/messages', [], ['messages']],
    ['POST', '/v1/responses', [['x-api-key', 'k']], ['openai']],
    ['GET', '/v1/models', [['x-api-key', 'k']], ['messages']],
    ['GET', '/v1/models', [['anthropic-version', '2023-06-01']], ['openai']],
    ['GET', '/nope', [['anthropic-version', '2023-06-01']], ['messages']],
    ['GET', '/v1/messages/x', [], ['messages']],
    ['GET', '/nope', [], ['openai']],
    ['GET', '/admin/keys', [['x-api-key', 'k']], ['openai']],
    ['GET', '/V1/MESSAGES/x', [], ['openai', 'messages']],
  ] as const)('%s %s with %j → %j', (method, path, headers, envelopes) => {
    expect([...expectedEnvelopes({ method, path, headers })].sort()).toEqual([...envelopes].sort());
  });
});
