import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { GATEWAY_ERROR_CODES, isJSONObject, type JSONObject } from '@signalbox/core';
import {
  parseSSEText,
  validateChatStream,
  validateGeminiStream,
  validateMessagesStream,
  validateResponsesStream,
} from '../stream-validators';
import { expectedEnvelopes, type Envelope } from './expected-envelopes';
import type { FuzzEndpoint } from './fuzz-endpoints';
import type { RawRequest, RawResponse } from './send-raw-request';

const REQUEST_ID = /^req_[A-Za-z0-9]{24}$/;
const ANTHROPIC_TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
};
const OPENAI_TYPES_BY_STATUS: Record<number, readonly string[]> = {
  401: ['authentication_error'],
  403: ['permission_error'],
  429: ['rate_limit_error', 'insufficient_quota'],
};
const DECOMPRESSORS: Record<string, (body: Buffer) => Buffer> = {
  gzip: gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};
const STREAM_VALIDATORS = {
  responses: validateResponsesStream,
  messages: validateMessagesStream,
  chat: validateChatStream,
  gemini: validateGeminiStream,
};
/** Google's canonical status names by HTTP status (google.rpc.Code), as the Gemini envelope must say them. */
const GEMINI_STATUS_NAMES_BY_STATUS: Record<number, readonly string[]> = {
  400: ['INVALID_ARGUMENT', 'FAILED_PRECONDITION'],
  401: ['UNAUTHENTICATED'],
  403: ['PERMISSION_DENIED'],
  404: ['NOT_FOUND'],
  408: ['DEADLINE_EXCEEDED'],
  409: ['FAILED_PRECONDITION'],
  413: ['INVALID_ARGUMENT'],
  415: ['INVALID_ARGUMENT'],
  426: ['FAILED_PRECONDITION'],
  429: ['RESOURCE_EXHAUSTED'],
  431: ['INVALID_ARGUMENT'],
};

/** What a request expects of its answer beyond the invariants every answer keeps. */
export type ResponseExpectation = {
  /** The generation endpoint the request aimed at, when the path is one (decides stream validation). */
  endpoint?: FuzzEndpoint;
  /** Strings that must not appear anywhere in the answer (keys, secrets). */
  secrets?: readonly string[];
  /**
   * Strings sent in the body: they must not come back in a refusal or a header. A success may
   * carry them (a Responses object echoes `instructions`, `tools`, `metadata`; a model may repeat a prompt).
   */
  refusalSecrets?: readonly string[];
};

/**
 * The invariants every answer of the gateway keeps, whatever it was sent: never ≥ 500; every
 * refusal a JSON envelope of the caller's protocol whose `request_id` is the `x-request-id`
 * header and whose `code` has that status in the catalogue; a `stream: true` success is a valid
 * SSE stream; no secret comes back. Returns the broken rules (empty when the answer is sound).
 */
export function findResponseProblems(
  request: RawRequest,
  response: RawResponse,
  expectation: ResponseExpectation = {},
): string[] {
  const problems: string[] = [];
  if (response.status >= 500 || response.status < 200) problems.push(`status ${response.status}`);
  const success = response.status >= 200 && response.status < 300;
  const inBody = [...(expectation.secrets ?? []), ...(success ? [] : (expectation.refusalSecrets ?? []))];
  for (const secret of inBody) {
    if (response.body.includes(secret)) problems.push(`the body contains the secret ${secret.slice(0, 8)}…`);
  }
  for (const secret of [...(expectation.secrets ?? []), ...(expectation.refusalSecrets ?? [])]) {
    if (response.rawHeaders.some(line => line.includes(secret)))
      problems.push(`a header contains the secret ${secret.slice(0, 8)}…`);
  }
  if (success) problems.push(...findSuccessProblems(request, response, expectation));
  else if (response.status >= 300 && response.status < 400) problems.push(...findRedirectProblems(request, response));
  else problems.push(...findRefusalProblems(request, response));
  return problems;
}

/** The one redirect the example server makes: `GET /` (and `HEAD /`), a browser's first visit, to the panel. */
function findRedirectProblems(request: RawRequest, response: RawResponse): string[] {
  // Express matches `/` with its optional trailing slash, so `//` is the root too.
  const root = /^\/\/?(\?|$)/.test(request.path) && (request.method === 'GET' || request.method === 'HEAD');
  if (!root) return [`a redirect (${response.status}) for ${request.method} of a path other than /`];
  return response.headers.location === '/panel' ? [] : [`a redirect of / to ${JSON.stringify(response.headers.location)}, not /panel`];
}

/** Throws a readable report when `findResponseProblems` finds anything (for fast-check's counterexample). */
export function assertSoundResponse(
  request: RawRequest,
  response: RawResponse,
  expectation: ResponseExpectation = {},
): void {
  const problems = findResponseProblems(request, response, expectation);
  if (problems.length === 0) return;
  throw new Error(`${problems.join('; ')}\n${describeExchange(request, response)}`);
}

/** The request and the answer, shortened, for failure messages. */
export function describeExchange(request: RawRequest, response: RawResponse): string {
  const body = request.body ? JSON.stringify(request.body.toString('utf8').slice(0, 300)) : '(none)';
  return [
    `request: ${request.method} ${JSON.stringify(request.path.slice(0, 200))} headers=${JSON.stringify(request.headers)} body=${body}`,
    `answer: ${response.status} ${JSON.stringify(response.headers)} ${JSON.stringify(response.body.toString('utf8').slice(0, 500))}`,
  ].join('\n');
}

function findRefusalProblems(request: RawRequest, response: RawResponse): string[] {
  const requestId = response.headers['x-request-id'];
  if (typeof requestId !== 'string' || !REQUEST_ID.test(requestId))
    return [`x-request-id ${JSON.stringify(requestId)} is not req_ + 24 base62`];
  if (request.method === 'HEAD') return response.body.length === 0 ? [] : ['a HEAD answer with a body'];
  if (!String(response.headers['content-type']).startsWith('application/json'))
    return [`content-type ${response.headers['content-type']}`];
  const body = parseJSON(response.body);
  if (!isJSONObject(body)) return ['the body is not a JSON object'];
  const problems: string[] = [];
  if (body.request_id !== requestId)
    problems.push(`request_id ${JSON.stringify(body.request_id)} ≠ x-request-id ${requestId}`);
  const code = typeof body.code === 'string' ? body.code : '';
  const entry = (GATEWAY_ERROR_CODES as Record<string, { status: number } | undefined>)[code];
  if (!entry) problems.push(`top-level code ${JSON.stringify(body.code)} is not a service code`);
  else if (entry.status !== response.status)
    problems.push(`code ${code} has status ${entry.status}, sent ${response.status}`);
  const envelope: Envelope = body.type === 'error' ? 'messages' : isJSONObject(body.error) && typeof body.error.status === 'string' ? 'gemini' : 'openai';
  const allowed = expectedEnvelopes(request);
  if (!allowed.has(envelope))
    problems.push(`${envelope} envelope where ${[...allowed].join('/')} was expected`);
  const envelopeProblems = { messages: findMessagesEnvelopeProblems, gemini: findGeminiEnvelopeProblems, openai: findOpenAIEnvelopeProblems }[envelope];
  problems.push(...envelopeProblems(body, response));
  return problems;
}

/** Google's `{error: {code, message, status, details}}`: the HTTP status, its canonical name, the service code and request id in the details. */
function findGeminiEnvelopeProblems(body: JSONObject, response: RawResponse): string[] {
  const error = body.error as JSONObject;
  const problems: string[] = [];
  if (error.code !== response.status) problems.push(`error.code ${String(error.code)} for ${response.status}`);
  if (typeof error.message !== 'string' || error.message === '') problems.push('error.message missing');
  const names = GEMINI_STATUS_NAMES_BY_STATUS[response.status];
  if (names !== undefined && !names.includes(String(error.status))) problems.push(`error.status ${String(error.status)} for ${response.status}`);
  const details = Array.isArray(error.details) ? error.details.filter(isJSONObject) : [];
  if (!details.some(detail => detail.reason === body.code)) problems.push('no ErrorInfo whose reason is the service code');
  if (!details.some(detail => detail.requestId === body.request_id)) problems.push('no RequestInfo with the request id');
  return problems;
}

function findMessagesEnvelopeProblems(body: JSONObject, response: RawResponse): string[] {
  const problems: string[] = [];
  if (response.headers['request-id'] !== response.headers['x-request-id'])
    problems.push('request-id header ≠ x-request-id');
  const error = body.error;
  if (!isJSONObject(error) || typeof error.message !== 'string' || error.message === '')
    return [...problems, 'error.message missing'];
  const expectedType = ANTHROPIC_TYPE_BY_STATUS[response.status];
  if (expectedType !== undefined && error.type !== expectedType)
    problems.push(`error.type ${String(error.type)} for ${response.status}`);
  if (expectedType === undefined && typeof error.type !== 'string') problems.push('error.type missing');
  return problems;
}

function findOpenAIEnvelopeProblems(body: JSONObject, response: RawResponse): string[] {
  const error = body.error;
  if (!isJSONObject(error)) return ['error is not an object'];
  const problems: string[] = [];
  if (typeof error.message !== 'string' || error.message === '') problems.push('error.message missing');
  if (typeof error.type !== 'string') problems.push('error.type missing');
  if (!(typeof error.param === 'string' || error.param === null))
    problems.push('error.param is neither string nor null');
  if (!(typeof error.code === 'string' || error.code === null))
    problems.push('error.code is neither string nor null');
  const types = OPENAI_TYPES_BY_STATUS[response.status] ?? ['invalid_request_error'];
  if (typeof error.type === 'string' && !types.includes(error.type))
    problems.push(`error.type ${error.type} for ${response.status}`);
  return problems;
}

function findSuccessProblems(
  request: RawRequest,
  response: RawResponse,
  expectation: ResponseExpectation,
): string[] {
  if (request.method === 'HEAD') return [];
  const contentType = String(response.headers['content-type']);
  const endpoint = expectation.endpoint;
  const generation = endpoint !== undefined && endpoint.method === 'POST' ? endpoint : undefined;
  if (generation && !REQUEST_ID.test(String(response.headers['x-request-id'])))
    return ['a success without x-request-id'];
  if (generation && asksForStream(request)) {
    if (!contentType.startsWith('text/event-stream'))
      return [`a stream success with content-type ${contentType}`];
    const verdict = STREAM_VALIDATORS[generation.name as keyof typeof STREAM_VALIDATORS](parseSSEText(response.body.toString('utf8')));
    if (verdict.outcome === 'none') return ['the stream ended without a terminal event'];
    return verdict.violations.slice(0, 3).map(violation => `stream: ${violation}`);
  }
  if (!contentType.startsWith('application/json') || parseJSON(response.body) === undefined)
    return [`a success that is not JSON (${contentType})`];
  return [];
}

function asksForStream(request: RawRequest): boolean {
  if (/:streamGenerateContent\?alt=sse$/i.test(request.path)) return true;
  const parsed = request.body ? parseJSON(decodedBody(request, request.body)) : undefined;
  return isJSONObject(parsed) && parsed.stream === true;
}

/** The body as the gateway reads it: decompressed per the (first) Content-Encoding line. */
function decodedBody(request: RawRequest, body: Buffer): Buffer {
  const encoding = request.headers
    .find(([name]) => name.toLowerCase() === 'content-encoding')?.[1]
    .trim()
    .toLowerCase();
  const decompress = encoding ? DECOMPRESSORS[encoding] : undefined;
  try {
    return decompress ? decompress(body) : body;
  } catch {
    return Buffer.alloc(0);
  }
}

function parseJSON(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
