import { createId, GatewayError } from '@switchyard/core';
import type { RequestHandler } from 'express';
import { findGatewayContext, setGatewayContext } from '../context/gateway-context';
import { guessProtocol } from './guess-protocol';

const ENDPOINTS = [
  'POST /v1/responses',
  'POST /v1/messages',
  'POST /v1/messages/count_tokens',
  'POST /v1/chat/completions',
  'GET /v1/models',
];
const KNOWN_PATHS = new Set(ENDPOINTS.map(endpoint => endpoint.split(' ')[1]!));

/**
 * Every path the gateway does not serve gets a 404 in the caller's envelope, with a hint that fixes
 * the usual base-URL mistakes (a duplicated `/v1`, a missing `/v1`, the wrong method).
 */
export function createNotFoundHandler(): RequestHandler {
  return function notFoundHandler(request) {
    if (!findGatewayContext(request)) {
      setGatewayContext(request, { requestId: createId('req_'), startedAt: Date.now(), protocol: guessProtocol(request) });
    }
    throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: notFoundMessage(request.method, request.path) });
  };
}

function notFoundMessage(method: string, path: string): string {
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  const base = `No endpoint ${method.slice(0, 20)} ${shown}.`;
  if (/\/v1\/v1(\/|$)/.test(path)) {
    return `${base} The path repeats /v1: give OpenAI SDKs the base URL {base}/v1 and the Anthropic SDK the base URL {base} (without /v1).`;
  }
  if (KNOWN_PATHS.has(path)) {
    const allowed = ENDPOINTS.find(endpoint => endpoint.endsWith(` ${path}`))!;
    return `${base} Use ${allowed}.`;
  }
  if (KNOWN_PATHS.has(`/v1${path}`)) {
    return `${base} The path lacks /v1: give OpenAI SDKs the base URL {base}/v1.`;
  }
  return `${base} Endpoints: ${ENDPOINTS.join(', ')}.`;
}
