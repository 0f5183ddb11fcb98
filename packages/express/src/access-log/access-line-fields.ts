import { boundClientText, secretRecogniser, type SecretRecogniser } from '@signalbox/core';
import type { UsageRecord } from '@signalbox/engine';
import type { Request, Response } from 'express';
import type { GatewayContext } from '../context/gateway-context';
import { loggedHeaderValue } from '../errors/failure-log-fields';

/** Nginx's status for a client that closed the connection before any answer: the request had none. */
const CLIENT_CLOSED_STATUS = 499;
/** The most of the request path a line keeps: a path is client text and can be kilobytes long. */
const PATH_MAX_CHARS = 500;
/** An upstream's request id is a short identifier; anything longer is cut. */
const UPSTREAM_REQUEST_ID_MAX_CHARS = 100;

/**
 * Only headers known to be harmless are logged (values scrubbed too): these, and those in which the
 * request's protocol's SDKs describe themselves (its descriptor's `clientInfoHeaders`). A credential
 * in any other header never reaches the log.
 */
const LOGGED_HEADERS = ['user-agent', 'content-type', 'content-length', 'accept'];

/** What the transport saw when the response closed: how long after the request arrived, and whether the response was cut short. */
export type ResponseEnding = { latencyMs: number; aborted: boolean };

/**
 * The fields of one access line, from the request, its response and, for a request the engine
 * served or refused, its settled usage record. Every value is an id, a count, a bounded label or
 * client text scrubbed by `secrets` (the path and query, allow-listed headers): never a body, a
 * credential or prompt text. The field set is the
 * same for every line (absent values are `undefined`, which JSON loggers leave out), so a log
 * query can rely on its names. See docs/operations.md, "Logs", for what each field means.
 */
export function accessLineFields(
  request: Pick<Request, 'method' | 'originalUrl' | 'headers'>,
  response: Pick<Response, 'headersSent' | 'statusCode'>,
  context: GatewayContext | undefined,
  ending: ResponseEnding,
  record: UsageRecord | undefined,
  secrets: SecretRecogniser = secretRecogniser,
): Record<string, unknown> {
  const headersSent = response.headersSent;
  return {
    requestId: context?.requestId,
    traceId: record?.traceId,
    method: request.method,
    // Credentials in the query (`?key=…`) are recognised like any other: no URL is parsed per line.
    path: boundClientText(request.originalUrl, PATH_MAX_CHARS, secrets),
    keyPrefix: record?.keyPrefix ?? context?.exchange?.principal?.key.prefix,
    // The record's model is the configured model ID once a route matched, and otherwise the client's
    // text already cut to a model ID's length and scrubbed by the engine.
    route: record?.model,
    upstream: record?.upstream,
    upstreamModel: record?.upstreamModel,
    upstreamRequestId: record?.upstreamRequestId === undefined ? undefined : boundClientText(record.upstreamRequestId, UPSTREAM_REQUEST_ID_MAX_CHARS, secrets),
    status: record?.status ?? (headersSent ? response.statusCode : CLIENT_CLOSED_STATUS),
    outcome: record?.outcome,
    code: record?.errorCode,
    attempts: record?.attempts,
    stream: record?.stream,
    aborted: ending.aborted,
    latencyMs: record?.latencyMs ?? ending.latencyMs,
    timeToFirstByteMs: record?.timeToFirstByteMs,
    inputTokens: record?.usage?.inputTokens,
    outputTokens: record?.usage?.outputTokens,
    // True when the upstream reported no counts (a stream cut short) and the gateway estimated them.
    tokensEstimated: record?.estimated,
    headers: loggedHeaders(request.headers, context?.codec.descriptor.clientInfoHeaders ?? [], secrets),
  };
}

function loggedHeaders(headers: Request['headers'], clientInfo: readonly string[], secrets: SecretRecogniser): Record<string, string> {
  const logged: Record<string, string> = {};
  addLoggedHeaders(logged, headers, LOGGED_HEADERS, secrets);
  addLoggedHeaders(logged, headers, clientInfo, secrets);
  return logged;
}

/** Copies the named headers the request has, scrubbed, into `logged` (plain loops: no array of the name lists per line). */
function addLoggedHeaders(logged: Record<string, string>, headers: Request['headers'], names: readonly string[], secrets: SecretRecogniser): void {
  for (let index = 0; index < names.length; index++) {
    const name = names[index]!;
    const value = headers[name];
    if (value !== undefined) logged[name] = loggedHeaderValue(value, secrets);
  }
}
