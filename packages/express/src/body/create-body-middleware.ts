import { GatewayError } from '@signalbox/core';
import type { Request, RequestHandler, Response } from 'express';
import { createBodyDecoder } from './create-body-decoder';
import { nestingDepthExceeds } from './nesting-depth-exceeds';
import { readLimitedBody } from './read-limited-body';

export type BodyOptions = {
  /** Largest accepted body in bytes, as sent and once decoded; larger ones get 413 (by Content-Length before reading, or while reading or decoding). Default 4 MiB. */
  limitBytes?: number;
  /** Longest the body may take to arrive in full once reading starts, in ms; a slower one gets 408. Default 60 000. */
  timeoutMs?: number;
  /**
   * Also read an HTML form's post (`application/x-www-form-urlencoded`) into an object of its fields,
   * within the same limits and encodings (the panel's login). Default false: JSON only.
   */
  forms?: boolean;
};

/** Deeper than any real request; deeper bodies would only exhaust the validators' stack. */
const MAX_NESTING_DEPTH = 64;

/**
 * Reads and parses a JSON body (one parse; with `forms`, an HTML form's fields too) within a size
 * limit and a body timeout, refusing in the interface's envelope (see `toGatewayError`): not
 * declared as JSON or not UTF-8 → 400; malformed JSON → 400 `INVALID_JSON`; over the limit → 413 at
 * once, by `Content-Length` before reading or the moment a chunked body passes it; not in full
 * within the timeout → 408. A body sent with `Content-Encoding: gzip`, `deflate`, `br` or `zstd` is
 * decoded as it arrives, the limit applying to its decoded bytes too (413 the moment they pass it);
 * one that does not decode → 400; any other encoding → 415 `UNSUPPORTED_CONTENT_ENCODING`. After a
 * refusal before the body's end, the rest of it is never read: the answer says `Connection: close`
 * and the connection is closed, so a client cannot hold the gateway reading a body it refused.
 *
 * @example router.post('/v1/messages', …, createBodyMiddleware({ limitBytes: 1 << 20, timeoutMs: 30_000 }), …)
 */
export function createBodyMiddleware(options: BodyOptions = {}): RequestHandler {
  const limits = { limitBytes: options.limitBytes ?? 4 * 1024 * 1024, timeoutMs: options.timeoutMs ?? 60_000 };
  const forms = options.forms === true;
  return async function bodyMiddleware(request, response, next) {
    try {
      const form = !declaresJSONBody(request) && acceptedAsForm(request, forms);
      // A host's own parser (e.g. `express.json()` mounted app-wide) may have read the body already: its result stands.
      if (!alreadyRead(request)) {
        if (!PLAIN_JSON_TYPES.has(request.headers['content-type'] ?? '')) refuseNonUTF8Body(request.headers);
        const decoder = createBodyDecoder(request.headers['content-encoding']);
        const bytes = await readLimitedBody(request, limits, decoder);
        request.body = form ? parseForm(bytes) : parseJSON(bytes);
      }
    } catch (error) {
      if (!request.complete) closeAfterAnswer(response);
      return next(error);
    }
    if (nestingDepthExceeds(request.body, MAX_NESTING_DEPTH)) {
      throw new GatewayError({ code: 'INVALID_REQUEST', message: `The request body nests deeper than ${MAX_NESTING_DEPTH} levels.` });
    }
    next();
  };
}

/**
 * The `Content-Type` values nearly every client sends, known to be JSON in UTF-8 without parsing
 * them; any other value is checked in full (`request.is`, the charset).
 */
const PLAIN_JSON_TYPES: ReadonlySet<string> = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/**
 * Whether the request has a body declared as `application/json`, as `request.is('application/json')`
 * decides (a body is one with `Transfer-Encoding` or a numeric `Content-Length`), without parsing
 * the common values.
 */
function declaresJSONBody(request: Request): boolean {
  const { headers } = request;
  const type = headers['content-type'];
  if (type === undefined || !PLAIN_JSON_TYPES.has(type)) return Boolean(request.is('application/json'));
  return headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(headers['content-length']));
}

/** For a body not declared as JSON: true when it is a form's post and `forms` are read; refused otherwise. */
function acceptedAsForm(request: Request, forms: boolean): true {
  if (forms && request.is('application/x-www-form-urlencoded')) return true;
  const expected = forms
    ? 'JSON (`Content-Type: application/json`) or a form (`application/x-www-form-urlencoded`)'
    : 'JSON sent with `Content-Type: application/json`';
  throw new GatewayError({ code: 'INVALID_JSON', message: `The request body must be ${expected}.` });
}

/** Refuses, before reading, a body whose declared charset is not UTF-8. */
function refuseNonUTF8Body(headers: Request['headers']): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(String(headers['content-type']))?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8') {
    throw new GatewayError({ code: 'INVALID_REQUEST', message: 'The request body must be UTF-8 JSON.' });
  }
}

/** Whether the body stream has been read to its end (by another parser) before this middleware. */
function alreadyRead(request: Request): boolean {
  return request.complete && !request.readable;
}

/** Decodes whole bodies (never streaming, so it keeps no state between them); skips a byte-order mark. */
const UTF8 = new TextDecoder('utf-8');

/** The body as JSON (a leading byte-order mark is skipped; an empty body is `{}`). */
function parseJSON(bytes: Buffer): unknown {
  const text = UTF8.decode(bytes);
  if (text.length === 0) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new GatewayError({ code: 'INVALID_JSON', message: 'The request body is not valid JSON.', cause: error });
  }
}

/** A form's fields as an object of strings (a repeated name keeps its last value). */
function parseForm(bytes: Buffer): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(UTF8.decode(bytes)));
}

/**
 * A refused body stays unread, so the connection cannot carry another request: Node closes it once
 * the answer is written, instead of reading the rest of the body to keep the connection alive.
 */
function closeAfterAnswer(response: Response): void {
  if (!response.headersSent) response.setHeader('connection', 'close');
}
