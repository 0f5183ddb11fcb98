import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { assertNever } from '@signalbox/core';
import { bodyBytes } from './body-arbitraries';
import type { FuzzEndpoint } from './fuzz-endpoints';
import type { BodyEncoding, HeaderChoice, HeaderPlan } from './header-arbitraries';
import { fillPlaceholders, type Secrets } from './secret-arbitraries';
import type { RawRequest } from './send-raw-request';

/** The request a header plan describes: the endpoint's first seed body, encoded and labelled as planned. */
export function buildHeaderRequest(endpoint: FuzzEndpoint, plan: HeaderPlan, secrets: Secrets): RawRequest {
  const isPost = endpoint.method === 'POST';
  const plain = isPost ? bodyBytes(endpoint, { kind: 'valid', seed: 0, stream: plan.stream }) : undefined;
  const { body, contentEncoding } = plain
    ? encodeBody(plain, plan.encoding)
    : { body: undefined, contentEncoding: undefined };
  const correct = new Map(endpoint.authHeaders(secrets.demoKey));
  if (isPost) correct.set('content-type', 'application/json');
  const headers: Array<[string, string]> = [];
  const add = (name: string, choice: HeaderChoice) => {
    if (choice.mode === 'correct' && correct.has(name)) headers.push([name, correct.get(name)!]);
    if (choice.mode === 'lines')
      for (const value of choice.values) headers.push([name, fillPlaceholders(value, secrets)]);
  };
  add('authorization', plan.authorization);
  add('x-api-key', plan.apiKey);
  // Gemini's key header takes the same plan as Anthropic's on the endpoints that read it.
  if (correct.has('x-goog-api-key')) add('x-goog-api-key', plan.apiKey);
  add('anthropic-version', plan.version);
  add('provider-version', plan.providerVersion);
  add('content-type', plan.contentType);
  if (contentEncoding !== undefined) headers.push(['content-encoding', contentEncoding]);
  for (const [name, value] of plan.extras) headers.push([name, fillPlaceholders(value, secrets)]);
  const request: RawRequest = {
    method: endpoint.method,
    path: endpoint.path,
    headers,
    ...(body && { body }),
  };
  const shorter = plan.length === 'shorter' && body !== undefined && body.length > 0;
  return shorter ? { ...request, declaredLength: Math.floor(body.length / 2) } : request;
}

function encodeBody(
  plain: Buffer,
  encoding: BodyEncoding,
): { body: Buffer; contentEncoding: string | undefined } {
  switch (encoding.kind) {
    case 'identity':
      return { body: plain, contentEncoding: undefined };
    case 'compressed': {
      const compress = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }[encoding.encoding];
      return { body: compress(plain), contentEncoding: encoding.encoding };
    }
    case 'corrupt':
      return { body: Buffer.from(encoding.bytes), contentEncoding: encoding.encoding };
    case 'label-only':
      return { body: plain, contentEncoding: encoding.encoding };
    default:
      return assertNever(encoding, 'body encoding');
  }
}
