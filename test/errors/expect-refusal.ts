import AnthropicV0 from '@anthropic-ai/sdk';
import type { UsageRecord } from '@signalbox/engine';
import OpenAI from 'openai';
import type { TestGateway } from '../helpers/start-test-gateway';
import type { Exchange, InterfaceClient, InterfaceName } from './interface-clients';

/** The error a call was refused with; fails the test when the call succeeded. */
export async function refusalOf(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    answer => fail(`expected a refusal, got a success: ${JSON.stringify(answer).slice(0, 200)}`),
    (error: unknown) => error,
  );
}

export type ExpectedRefusal = {
  status: number;
  /** The stable service code (top-level `code`). */
  code: string;
  message?: RegExp;
  /** `error.param` on the OpenAI envelope. */
  param?: string | null;
  /** `error.code` on the OpenAI envelope. */
  openAICode?: string | null;
  /** `error.type` on the OpenAI envelope, when a test checks it on its own (default: the type for the status, below). */
  openAIType?: RegExp;
  /** Strings that must not appear anywhere in the body (the key used is always included). */
  secrets?: readonly string[];
};

/** What the checks found, for further assertions by the caller. */
export type Refusal = {
  body: Record<string, unknown>;
  exchange: Exchange;
  retryAfter: number | undefined;
  record: UsageRecord;
};

/**
 * Per status: the SDK error class (both SDKs; 413 is their base `APIError`), Anthropic's `error.type`
 * (https://docs.anthropic.com/en/api/errors; a 503 is `overloaded_error` only for an overload) and
 * the OpenAI `error.type` the gateway sends, plus the alternatives OpenAI itself uses
 * (https://platform.openai.com/docs/guides/error-codes).
 */
const BY_STATUS: Record<number, { sdkClass: string; anthropic: string; openAI: RegExp }> = {
  400: { sdkClass: 'BadRequestError', anthropic: 'invalid_request_error', openAI: /^invalid_request_error$/ },
  401: {
    sdkClass: 'AuthenticationError',
    anthropic: 'authentication_error',
    openAI: /^(authentication|invalid_request)_error$/,
  },
  403: { sdkClass: 'PermissionDeniedError', anthropic: 'permission_error', openAI: /^permission_error$/ },
  404: { sdkClass: 'NotFoundError', anthropic: 'not_found_error', openAI: /^invalid_request_error$/ },
  413: { sdkClass: 'APIError', anthropic: 'request_too_large', openAI: /^invalid_request_error$/ },
  429: {
    sdkClass: 'RateLimitError',
    anthropic: 'rate_limit_error',
    // OpenAI's 429s say rate_limit_error, tokens or requests, and insufficient_quota for a used-up quota.
    openAI: /^(rate_limit_error|tokens|requests|insufficient_quota)$/,
  },
  502: { sdkClass: 'InternalServerError', anthropic: 'api_error', openAI: /^server_error$/ },
  503: {
    sdkClass: 'InternalServerError',
    anthropic: 'api_error',
    openAI: /^(server_error|service_unavailable_error)$/,
  },
  504: { sdkClass: 'InternalServerError', anthropic: 'timeout_error', openAI: /^server_error$/ },
};

function byStatus(status: number) {
  return BY_STATUS[status] ?? fail(`no envelope listed for status ${status}`);
}

function observedClassName(name: InterfaceName, failure: unknown): string {
  const sdk = (name === 'messages' ? AnthropicV0 : OpenAI) as unknown as Record<string, typeof Error>;
  const classes = new Set(
    Object.values(BY_STATUS)
      .map(entry => entry.sdkClass)
      .filter(name => name !== 'APIError'),
  );
  const found = [...classes].find(className => failure instanceof sdk[className]!);
  if (found) return found;
  return failure instanceof sdk.APIError! ? 'APIError' : `not an SDK APIError: ${String(failure)}`;
}

/**
 * Checks one refusal end to end and reports every difference at once: status, SDK error class,
 * the interface's envelope, the top-level service code, one request id in body, headers and SDK,
 * no secret in the body, `Retry-After` on 429s, and the usage record of the request.
 */
export async function expectRefusal(
  server: TestGateway,
  client: InterfaceClient,
  failure: unknown,
  expected: ExpectedRefusal,
  key?: string,
): Promise<Refusal> {
  const exchange = client.last();
  const body = parseObject(exchange.text);
  const requestId = exchange.headers.get('x-request-id');
  const record = await usageRecordOf(server, requestId);
  const secrets = [...(expected.secrets ?? []), ...(key === undefined ? [] : [key])];
  expect(observe(client.name, failure, exchange, body, { record, secrets, expected })).toEqual(
    expectation(client.name, expected, body, requestId),
  );
  expect(requestId).toMatch(/^req_[A-Za-z0-9]+$/);
  const retryAfter = exchange.headers.get('retry-after');
  return {
    body,
    exchange,
    retryAfter: retryAfter === null ? undefined : Number(retryAfter),
    record: record!,
  };
}

type Observed = { record: UsageRecord | undefined; secrets: readonly string[]; expected: ExpectedRefusal };
type SDKErrorFields = {
  status?: number;
  requestID?: string | null;
  error?: unknown;
  code?: unknown;
  type?: unknown;
};

/** What the client got, in the shape of `expectation`. */
function observe(name: InterfaceName, failure: unknown, exchange: Exchange, body: JSON, observed: Observed) {
  const sdkError = failure as SDKErrorFields;
  const inner = (body.error ?? {}) as JSON;
  const isMessages = name === 'messages';
  const { record, secrets, expected } = observed;
  return {
    status: sdkError.status,
    sdkClass: observedClassName(name, failure),
    envelope: isMessages
      ? { type: body.type, error: { type: inner.type, message: typeof inner.message } }
      : openAIShape(inner, expected),
    code: body.code,
    message: inner.message,
    requestIds: {
      body: body.request_id,
      sdk: sdkError.requestID,
      ...(isMessages && { requestIdHeader: exchange.headers.get('request-id') }),
    },
    sdkSeesTheBody: isMessages
      ? sdkError.error
      : { error: sdkError.error, code: sdkError.code, type: sdkError.type },
    secretsInBody: secrets.filter(secret => exchange.text.includes(secret)),
    usage: record && { status: record.status, errorCode: record.errorCode, outcome: record.outcome },
    ...(expected.status === 429 && { retryAfter: exchange.headers.get('retry-after') }),
  };
}

/** What the error catalogue, the protocol's envelope and the SDK say the client must get. */
function expectation(name: InterfaceName, expected: ExpectedRefusal, body: JSON, requestId: string | null) {
  const isMessages = name === 'messages';
  const inner = (body.error ?? {}) as JSON;
  return {
    status: expected.status,
    sdkClass: byStatus(expected.status).sdkClass,
    envelope: isMessages
      ? { type: 'error', error: { type: anthropicType(expected), message: 'string' } }
      : {
          type: expect.stringMatching(expected.openAIType ?? byStatus(expected.status).openAI),
          message: 'string',
          param: expected.param === undefined ? 'string or null' : expected.param,
          code: expected.openAICode === undefined ? 'string or null' : expected.openAICode,
        },
    code: expected.code,
    message: expected.message ? expect.stringMatching(expected.message) : expect.any(String),
    requestIds: { body: requestId, sdk: requestId, ...(isMessages && { requestIdHeader: requestId }) },
    sdkSeesTheBody: isMessages ? body : { error: body.error, code: inner.code, type: inner.type },
    secretsInBody: [],
    usage: { status: expected.status, errorCode: expected.code, outcome: 'error' },
    ...(expected.status === 429 && { retryAfter: expect.stringMatching(/^[1-9][0-9]*$/) }),
  };
}

function anthropicType(expected: ExpectedRefusal): string {
  return expected.code === 'UPSTREAM_OVERLOADED' ? 'overloaded_error' : byStatus(expected.status).anthropic;
}

/** The OpenAI envelope's fields: `param`/`code` as sent when a value is expected, else whether they are `string | null`. */
function openAIShape(inner: JSON, expected: ExpectedRefusal) {
  const shape = (value: unknown, checked: boolean) => {
    if (checked) return value;
    return typeof value === 'string' || value === null
      ? 'string or null'
      : `not string or null: ${JSON.stringify(value)}`;
  };
  return {
    type: inner.type,
    message: typeof inner.message,
    param: shape(inner.param, expected.param !== undefined),
    code: shape(inner.code, expected.openAICode !== undefined),
  };
}

type JSON = Record<string, unknown>;

function parseObject(text: string): JSON {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as JSON) : { notAnObject: value };
  } catch {
    return { notJSON: text.slice(0, 200) };
  }
}

/** The usage record of a request (records are written just after the answer; wait briefly). */
export async function usageRecordOf(
  server: TestGateway,
  requestId: string | null,
): Promise<UsageRecord | undefined> {
  for (let waited = 0; waited <= 1_000; waited += 10) {
    const record = server.recentUsage().find(candidate => candidate.requestId === requestId);
    if (record) return record;
    await sleep(10);
  }
  return undefined;
}

export const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));

function fail(message: string): never {
  throw new Error(message);
}
