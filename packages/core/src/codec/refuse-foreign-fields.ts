import { GatewayError } from '../errors/gateway-error';
import type { JSONObject } from '../json';

/** A top-level field of another protocol's endpoint: which endpoints take it, and what this one takes instead. */
export type ForeignField = { endpoints: string; instead?: string };

/**
 * Refuses a body carrying a field that clearly belongs to a sibling protocol (`max_tokens` on
 * `POST /v1/responses`, `input` on `POST /v1/messages`) with a 400 `INVALID_REQUEST` that names the
 * field, the endpoint that takes it and this endpoint's own field for the same thing. The vendor
 * refuses such a body too; passing it on or dropping it would hide a client's mistake (the output
 * limit or the conversation it meant would be lost), unlike a genuinely new field.
 */
export function refuseForeignFields(body: JSONObject, endpoint: string, foreign: Readonly<Record<string, ForeignField>>): void {
  for (const [field, { endpoints, instead }] of Object.entries(foreign)) {
    if (!Object.hasOwn(body, field) || body[field] === undefined) continue;
    throw new GatewayError({
      code: 'INVALID_REQUEST',
      param: field,
      message:
        `\`${field}\` is a field of ${endpoints}, not of this endpoint (${endpoint})` +
        (instead === undefined ? '.' : `: ${instead}.`) +
        ' Send the body to the endpoint it was written for, or rewrite it for this one.',
    });
  }
}
