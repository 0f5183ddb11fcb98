import { createDroppedOptionsDescriber, type Codec } from '@signalbox/core';
import { anthropicMessagesDescriptor } from './anthropic-messages-descriptor';
import { addAnthropicCacheBreakpoints } from './cache/add-anthropic-cache-breakpoints';
import { createAnthropicPassthroughStream } from './stream/create-anthropic-passthrough-stream';
import { decodeAnthropicTokenCountRequest } from './count-tokens/decode-anthropic-token-count-request';
import { decodeAnthropicError, encodeAnthropicError } from './error/anthropic-error-envelope';
import { encodeAnthropicModelList } from './models/encode-anthropic-model-list';
import { capAnthropicOutputTokens } from './request/cap-anthropic-output-tokens';
import { decodeAnthropicRequest } from './request/decode-anthropic-request';
import { encodeAnthropicRequest } from './request/encode-anthropic-request';
import { decodeAnthropicResponse } from './response/decode-anthropic-response';
import { encodeAnthropicResponse } from './response/encode-anthropic-response';
import { createAnthropicStreamDecoder } from './stream/decode-anthropic-stream';
import { createAnthropicStreamEncoder } from './stream/encode-anthropic-stream';
import { describeAnthropicOpenAPI } from './openapi/describe-anthropic-openapi';

/** The Anthropic Messages protocol (`POST /v1/messages`, API version 2023-06-01), both sides of the gateway. */
export const anthropicMessagesCodec: Codec = {
  protocol: 'anthropic-messages',
  descriptor: anthropicMessagesDescriptor,
  decodeRequest: decodeAnthropicRequest,
  encodeRequest: encodeAnthropicRequest,
  decodeResponse: decodeAnthropicResponse,
  encodeResponse: encodeAnthropicResponse,
  createStreamDecoder: createAnthropicStreamDecoder,
  createStreamEncoder: createAnthropicStreamEncoder,
  decodeError: decodeAnthropicError,
  encodeError: encodeAnthropicError,
  encodeModelList: encodeAnthropicModelList,
  describeDroppedOptions: createDroppedOptionsDescriber(['cache_control']),
  decodeTokenCountRequest: decodeAnthropicTokenCountRequest,
  encodeTokenCount: inputTokens => ({ input_tokens: inputTokens }),
  capOutputTokens: capAnthropicOutputTokens,
  addCacheBreakpoints: addAnthropicCacheBreakpoints,
  createPassthroughStream: createAnthropicPassthroughStream,
  describeOpenAPI: describeAnthropicOpenAPI,
};
