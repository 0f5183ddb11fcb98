import { GATEWAY_ERROR_CODES, type GatewayErrorCode, type JSONObject } from '@signalbox/core';

/** Statuses whose answers carry `Retry-After` (seconds) when the gateway knows how long to wait. */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Which service codes an endpoint can answer with: an interface endpoint that may call an upstream
 * (generation, token count, compaction), one that never does (models list, stored responses), or
 * the admin API.
 */
export type ErrorAudience = 'upstream-calls' | 'gateway-only' | 'admin';

const ADMIN_CODES: ReadonlySet<GatewayErrorCode> = new Set<GatewayErrorCode>([
  'INVALID_REQUEST',
  'INVALID_JSON',
  'ADMIN_TOKEN_MISSING',
  'ADMIN_TOKEN_INVALID',
  'ADMIN_TOKEN_REQUIRED',
  'CONSOLE_ROLE_FORBIDDEN',
  'KEY_LIMITS_ABOVE_CEILING',
  'CONFIG_READ_ONLY',
  'CONFIG_VERSION_CONFLICT',
  'RESOURCE_NOT_FOUND',
  'ENDPOINT_NOT_FOUND',
  'REQUEST_TIMEOUT',
  'REQUEST_TOO_LARGE',
  'UNSUPPORTED_CONTENT_ENCODING',
  'INTERNAL_ERROR',
  'STORE_UNAVAILABLE',
]);

function isFor(audience: ErrorAudience, code: GatewayErrorCode): boolean {
  if (audience === 'admin') return ADMIN_CODES.has(code);
  // The WebSocket codes answer an upgrade or travel in WebSocket frames, which the document does not list.
  if (code.startsWith('ADMIN_') || code.startsWith('PANEL_') || code.startsWith('CONSOLE_') || code.startsWith('WEBSOCKET_') || code === 'KEY_LIMITS_ABOVE_CEILING' || code.startsWith('CONFIG_')) return false;
  return audience === 'upstream-calls' || GATEWAY_ERROR_CODES[code].source !== 'upstream';
}

/**
 * The error answers of an operation, one per HTTP status, generated from the service code table so
 * the document lists exactly the codes the gateway can send (the catalogue is docs/errors.md). Each
 * is in the protocol's envelope (`errorSchema`), with `Retry-After` on 429 and 503.
 */
export function describeErrorResponses(errorSchema: JSONObject, audience: ErrorAudience): Record<string, JSONObject> {
  const codesByStatus = new Map<number, GatewayErrorCode[]>();
  for (const [code, { status }] of Object.entries(GATEWAY_ERROR_CODES) as [GatewayErrorCode, { status: number }][]) {
    if (!isFor(audience, code)) continue;
    codesByStatus.set(status, [...(codesByStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JSONObject> = {};
  for (const [status, codes] of [...codesByStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: `Refused or failed; the top-level \`code\` is one of ${codes.map(code => `\`${code}\``).join(', ')}.`,
      ...(RETRY_AFTER_STATUSES.has(status) && { headers: { 'retry-after': { $ref: '#/components/headers/retry-after' } } }),
      content: { 'application/json': { schema: errorSchema } },
    };
  }
  return responses;
}

/** The `Retry-After` response header, declared once under `components.headers`. */
export const RETRY_AFTER_HEADER: JSONObject = {
  description: 'Seconds to wait before a retry, computed from the limiter\'s state or the upstream\'s own `Retry-After`.',
  schema: { type: 'integer', minimum: 1 },
};
