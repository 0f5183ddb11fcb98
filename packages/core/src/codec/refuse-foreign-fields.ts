import { GatewayError } from '../errors/gateway-error';
import type { JSONObject } from '../json';
import { boundClientText } from '../redact/quote-client-value';
import type { DecodeOptions } from './codec';

/** A foreign field a body carries, with the endpoints named as the client calls them (`POST /llm/v1/responses`). */
export type FoundForeignField = {
  field: string;
  /** The endpoints that take it: `POST /v1/messages and POST /v1/chat/completions`. */
  endpoints: string;
  /** This endpoint: `POST /v1/responses`. */
  endpoint: string;
  instead?: string;
};

/**
 * The first field of the body that belongs to another protocol the gateway serves
 * (`options.foreignFields`) but is not in `known`, the endpoint's own fields, whoever else declares
 * them; undefined when there is none (always, without `foreignFields`).
 */
export function findForeignField(body: JSONObject, options: DecodeOptions, known: ReadonlySet<string>): FoundForeignField | undefined {
  const foreign = options.foreignFields;
  if (foreign === undefined) return undefined;
  for (const [field, { paths, instead }] of foreign.fields) {
    if (!Object.hasOwn(body, field) || body[field] === undefined || known.has(field)) continue;
    // A mount path with parameters holds client text.
    const mountPath = boundClientText(options.mountPath ?? '');
    return {
      field,
      endpoints: joinWithAnd(paths.map(path => `POST ${mountPath}${path}`)),
      endpoint: `POST ${mountPath}${foreign.path}`,
      ...(instead !== undefined && { instead }),
    };
  }
  return undefined;
}

/**
 * Refuses a body carrying a field that clearly belongs to another protocol the gateway serves
 * (`max_tokens` on `POST /v1/responses`, `input` on `POST /v1/messages`) with a 400
 * `INVALID_REQUEST` that names the field, the endpoints that take it and this endpoint's own field
 * for the same thing. The vendor refuses such a body too; passing it on or dropping it would hide a
 * client's mistake (the output limit or the conversation it meant would be lost), unlike a
 * genuinely new field. The fields in `known` are the endpoint's own, whoever else takes them.
 */
export function refuseForeignFields(body: JSONObject, options: DecodeOptions, known: ReadonlySet<string>): void {
  const found = findForeignField(body, options, known);
  if (found === undefined) return;
  throw new GatewayError({
    code: 'INVALID_REQUEST',
    param: found.field,
    message:
      `\`${found.field}\` is a field of ${found.endpoints}, not of this endpoint (${found.endpoint})` +
      (found.instead === undefined ? '.' : `: ${found.instead}.`) +
      ' Send the body to the endpoint it was written for, or rewrite it for this one.',
  });
}

function joinWithAnd(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}
