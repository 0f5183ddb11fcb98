import type { Codec, JSONObject, ModelInfo } from '@signalbox/core';
import { toyDescriptor } from './toy-descriptor';
import { decodeToyError, encodeToyError } from './toy-error';
import { decodeToyRequest, encodeToyRequest } from './toy-request';
import { decodeToyResponse, encodeToyResponse } from './toy-response';
import { createToyStreamDecoder, createToyStreamEncoder } from './toy-stream';

/** The toy's models list: the model IDs and nothing else. */
function encodeToyModelList(models: readonly ModelInfo[]): JSONObject {
  return { models: models.map(model => model.id) };
}

/**
 * A fourth protocol, written outside the product as a host would write one: `toy-text`, a prompt in
 * and text out (`POST /v1/toy/generate`), streamed as `event: token` frames ending with `event:
 * done`, errors as `{ failure: { code, message, request_id } }`. It implements the whole codec
 * contract on both sides, so it serves clients and can also be an upstream.
 */
export const toyCodec: Codec = {
  protocol: 'toy-text',
  descriptor: toyDescriptor,
  decodeRequest: decodeToyRequest,
  encodeRequest: encodeToyRequest,
  decodeResponse: decodeToyResponse,
  encodeResponse: encodeToyResponse,
  createStreamDecoder: createToyStreamDecoder,
  createStreamEncoder: createToyStreamEncoder,
  decodeError: decodeToyError,
  encodeError: encodeToyError,
  encodeModelList: encodeToyModelList,
};
