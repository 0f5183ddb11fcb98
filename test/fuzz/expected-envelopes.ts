import type { RawRequest } from './send-raw-request';

/** The error envelope a refusal uses: OpenAI's (Responses, Chat, models, admin), Anthropic's or Google's. */
export type Envelope = 'openai' | 'messages' | 'gemini';

/** Gemini's generation and token-count endpoints, under `/v1beta` and `/v1` (Express matches without regard to case). */
const GEMINI_ENDPOINT_PATH = /^\/v1(beta)?\/models\/[^/]+:(generateContent|streamGenerateContent|countTokens)$/i;

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
 * `/messages` path), else Google's when it looks like a Gemini client (`x-goog-api-key`, a
 * `/v1beta/models` path), OpenAI's otherwise; the admin API always OpenAI's. When the raw path and its
 * decoded, lower-cased form point different ways (Express routes case-insensitively), either is fine.
 */
export function expectedEnvelopes(request: RawRequest): ReadonlySet<Envelope> {
  // Node refuses a request line this long before reading a single header: nothing tells the callers apart.
  if (request.path.length > 8 * 1024) return new Set<Envelope>(['openai', 'messages', 'gemini']);
  const raw = request.path.split('?')[0]!;
  const candidates = new Set<Envelope>();
  for (const path of new Set([raw, normalizePath(raw)])) candidates.add(envelopeFor(request, path));
  return candidates;
}

function envelopeFor(request: RawRequest, path: string): Envelope {
  const headerNames = new Set(request.headers.map(([name]) => name.toLowerCase()));
  const routed = path.length > 1 ? path.replace(/\/$/, '') : path;
  if (request.method === 'POST' && GENERATION_PATHS[routed] !== undefined) return GENERATION_PATHS[routed];
  if (request.method === 'POST' && GEMINI_ENDPOINT_PATH.test(routed)) return 'gemini';
  if (request.method === 'GET' && routed.toLowerCase() === '/v1beta/models') return 'gemini';
  if (routed === '/admin' || routed.startsWith('/admin/')) return 'openai';
  if (['GET', 'HEAD', 'DELETE'].includes(request.method) && STORED_RESPONSE_PATH.test(routed)) return 'openai';
  if (['GET', 'HEAD'].includes(request.method) && STORED_INPUT_ITEMS_PATH.test(routed)) return 'openai';
  if (request.method === 'GET' && routed === '/v1/models')
    return headerNames.has('x-api-key') ? 'messages' : headerNames.has('x-goog-api-key') ? 'gemini' : 'openai';
  const anthropicCaller =
    path.includes('/messages') || headerNames.has('x-api-key') || headerNames.has('anthropic-version');
  if (anthropicCaller) return 'messages';
  // On a tie with Anthropic's signs the codec listed first (Messages) wins, as the gateway's guess does.
  const geminiCaller = headerNames.has('x-goog-api-key') || /^\/v1beta\/models(\/|$)/i.test(path) || /^\/v1\/models\/[^/]+:/i.test(path);
  return geminiCaller ? 'gemini' : 'openai';
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
