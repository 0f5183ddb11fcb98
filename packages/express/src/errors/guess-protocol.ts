import type { Protocol } from '@switchyard/core';
import type { Request } from 'express';

const GENERATION_PATHS: Record<string, Protocol> = {
  '/v1/responses': 'openai-responses',
  '/v1/chat/completions': 'openai-chat',
  '/v1/messages': 'anthropic-messages',
};

type RequestShape = { method: string; path: string; headerNames: ReadonlySet<string> };

/**
 * The envelope for a request no interface handled (a wrong path, a parse error): the generation
 * endpoint's own when the path is one; OpenAI's for the admin API; otherwise Anthropic's when the caller looks like an Anthropic
 * client (a `/messages` path, `x-api-key` or a version header), OpenAI's for everyone else.
 */
export function guessProtocolOf({ method, path, headerNames }: RequestShape): Protocol {
  const routed = path.length > 1 ? path.replace(/\/$/, '') : path;
  const generation = GENERATION_PATHS[routed];
  if (method === 'POST' && generation !== undefined) return generation;
  if (routed === '/admin' || routed.startsWith('/admin/')) return 'openai-responses'; // the admin API's envelope
  if (path.includes('/messages') || headerNames.has('x-api-key') || headerNames.has('anthropic-version')) {
    return 'anthropic-messages';
  }
  return path.includes('/chat/') ? 'openai-chat' : 'openai-responses';
}

/** `guessProtocolOf` for a request Express parsed. */
export function guessProtocol(request: Request): Protocol {
  return guessProtocolOf({ method: request.method, path: request.path, headerNames: new Set(Object.keys(request.headers)) });
}

/** `guessProtocolOf` for the raw bytes Node's parser could read (request line first, then headers). */
export function guessProtocolFromRaw(raw: string): Protocol {
  const [requestLine = '', ...headerLines] = raw.split('\r\n');
  const [method = '', target = ''] = requestLine.split(' ');
  const headerNames = new Set(headerLines.map(line => line.slice(0, Math.max(0, line.indexOf(':'))).trim().toLowerCase()));
  return guessProtocolOf({ method, path: target.split('?')[0]!, headerNames });
}
