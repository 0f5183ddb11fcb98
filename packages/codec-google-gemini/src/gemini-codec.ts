import { createDroppedOptionsDescriber, type Codec } from '@signalbox/core';
import { geminiDescriptor } from './gemini-descriptor';
import { decodeGeminiError, encodeGeminiError } from './gemini-error-envelope';
import { encodeGeminiModelList } from './gemini-model-list';
import { describeGeminiOpenAPI } from './openapi/describe-gemini-openapi';
import { GEMINI_PROTOCOL } from './gemini-options';
import { decodeGeminiRequest } from './request/decode-gemini-request';
import { decodeGeminiTokenCountRequest } from './request/decode-gemini-token-count-request';
import { encodeGeminiRequest } from './request/encode-gemini-request';
import { decodeGeminiResponse } from './response/decode-gemini-response';
import { encodeGeminiResponse } from './response/encode-gemini-response';
import { createGeminiStreamDecoder } from './stream/decode-gemini-stream';
import { createGeminiStreamEncoder } from './stream/encode-gemini-stream';

/**
 * Google's Gemini generateContent (`POST /v1beta/models/{model}:generateContent` and
 * `:streamGenerateContent`), on both sides of the gateway. A same-protocol route encodes from the
 * IR too: the model and framing are in the path, not a body field to replace.
 */
export const geminiCodec: Codec = {
  protocol: GEMINI_PROTOCOL,
  descriptor: geminiDescriptor,
  decodeRequest: decodeGeminiRequest,
  encodeRequest: encodeGeminiRequest,
  decodeResponse: decodeGeminiResponse,
  encodeResponse: encodeGeminiResponse,
  createStreamDecoder: createGeminiStreamDecoder,
  createStreamEncoder: createGeminiStreamEncoder,
  decodeError: decodeGeminiError,
  encodeError: encodeGeminiError,
  decodeTokenCountRequest: decodeGeminiTokenCountRequest,
  encodeTokenCount: inputTokens => ({ totalTokens: inputTokens }),
  encodeModelList: encodeGeminiModelList,
  // The client's framing and whether it sees thoughts are honoured on its side, whatever the upstream.
  describeDroppedOptions: createDroppedOptionsDescriber(['alt', 'includeThoughts', 'labels']),
  describeOpenAPI: describeGeminiOpenAPI,
};
