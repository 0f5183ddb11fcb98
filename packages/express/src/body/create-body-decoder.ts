import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';
import type { Transform } from 'node:stream';
import { GatewayError, quoteClientValue } from '@signalbox/core';

/** A decoder for a request body sent with one `Content-Encoding`, and the encoding's name for messages. */
export type BodyDecoder = { encoding: string; stream: Transform };

/** The `Content-Encoding`s a request body may come in, and a fresh streaming decoder for each. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => createGunzip(),
  'x-gzip': () => createGunzip(),
  deflate: () => createInflate(),
  br: () => createBrotliDecompress(),
  zstd: () => createZstdDecompress(),
};

/**
 * A streaming decoder for the body's `Content-Encoding` (`gzip`, `deflate`, `br` or `zstd`), or
 * `undefined` for a body sent as it is (no header, or `identity`). Decoding streams, so that the
 * caller can count the decoded bytes against the body limit as they come out and stop the decoder
 * the moment they pass it: a small body that would inflate to gigabytes never gets the chance.
 *
 * @throws GatewayError `UNSUPPORTED_CONTENT_ENCODING` (415) for any other encoding, or for a chain of
 *   several (`gzip, br`), which no client of these APIs sends.
 * @see https://www.rfc-editor.org/rfc/rfc9110#name-content-encoding
 */
export function createBodyDecoder(contentEncoding: string | undefined): BodyDecoder | undefined {
  const encoding = (contentEncoding ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return undefined;
  const create = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
  if (!create) {
    throw new GatewayError({
      code: 'UNSUPPORTED_CONTENT_ENCODING',
      message: `The request body's Content-Encoding ${quoteClientValue(contentEncoding ?? '', 60)} is not supported; send it uncompressed or as gzip, deflate, br or zstd.`,
    });
  }
  return { encoding, stream: create() };
}
