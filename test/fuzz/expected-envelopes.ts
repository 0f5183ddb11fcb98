import type { RawRequest } from './send-raw-request';

/** The error envelope a refusal uses: OpenAI's (Responses, Chat, models, admin) or Anthropic's. */
export type Envelope = 'openai' | 'messages';

/** Stored-response endpoints (`GET`/`DELETE /v1/responses/{id}`, `GET …/{id}/input_items`): the Responses envelope. */
const STORED_RESPONSE_PATH = /^\/v1\/responses\/[^/]+$/i;
const STORED_INPUT_ITEMS_PATH = /^\/v1\/responses\/[^/]+\/input_items$/i;

const GENERATION_PATHS: Record<string, Envelope> = {
  '/v1/responses': 'openai',
  '/v1/chat/completions': 'openai',
  '/v1/messages': 'messages',
};

/**
 * The envelopes a refusal of `request` may use, from docs/errors.md ("inside the caller's own
 * protocol envelope"): a generation or stored-response endpoint's own; on `GET /v1/models` and unknown paths
 * Anthropic's when the caller looks like an Anthropic client (`x-api-key`, a version header, a
 * `/messages` path), OpenAI's otherwise; the admin API always OpenAI's. When the raw path and its
 * decoded, lower-cased form point different ways (Express routes case-insensitively), either is fine.
 */
export function expectedEnvelopes(request: RawRequest): ReadonlySet<Envelope> {
  // Node refuses a request line this long before reading a single header: nothing tells the callers apart.
  if (request.path.length > 8 * 1024) return new Set<Envelope>(['openai', 'messages']);
  const raw = request.path.split('?')[0]!;
  const candidates = new Set<Envelope>();
  for (const path of new Set([raw, normalizePath(raw)])) candidates.add(envelopeFor(request, path));
  return candidates;
}

function envelopeFor(request: RawRequest, path: string): Envelope {
  const headerNames = new Set(request.headers.map(([name]) => name.toLowerCase()));
  const routed = path.length > 1 ? path.replace(/\/$/, '') : path;
  if (request.method === 'POST' && GENERATION_PATHS[routed] !== undefined) return GENERATION_PATHS[routed];
  if (routed === '/admin' || routed.startsWith('/admin/')) return 'openai';
  if (['GET', 'HEAD', 'DELETE'].includes(request.method) && STORED_RESPONSE_PATH.test(routed)) return 'openai';
  if (['GET', 'HEAD'].includes(request.method) && STORED_INPUT_ITEMS_PATH.test(routed)) return 'openai';
  if (request.method === 'GET' && routed === '/v1/models')
    return headerNames.has('x-api-key') ? 'messages' : 'openai';
  const anthropicCaller =
    path.includes('/messages') || headerNames.has('x-api-key') || headerNames.has('anthropic-version');
  return anthropicCaller ? 'messages' : 'openai';
}

function normalizePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Malformed percent-encoding: keep the raw path.
  }
  return decoded.toLowerCase();
}
