export { anthropicMessagesCodec } from './anthropic-messages-codec';
export {
  decodeAnthropicError,
  encodeAnthropicError,
  mapAnthropicErrorType,
  mapAnthropicStreamErrorType,
} from './error/anthropic-error-envelope';
export { decodeAnthropicRequest } from './request/decode-anthropic-request';
export { DEFAULT_ANTHROPIC_MAX_TOKENS, encodeAnthropicRequest } from './request/encode-anthropic-request';
export { parseAnthropicRequest } from './request/parse-anthropic-request';
export { decodeAnthropicResponse } from './response/decode-anthropic-response';
export { encodeAnthropicResponse } from './response/encode-anthropic-response';
export { anthropicRequestSchema, type AnthropicRequest } from './schema/anthropic-request-schema';
export { encodeAnthropicStopReason } from './stop-reason/encode-anthropic-stop-reason';
export { mapAnthropicStopReason } from './stop-reason/map-anthropic-stop-reason';
export { createAnthropicStreamDecoder } from './stream/decode-anthropic-stream';
export { createAnthropicStreamEncoder } from './stream/encode-anthropic-stream';
export { decodeAnthropicUsage } from './usage/decode-anthropic-usage';
export { encodeAnthropicDeltaUsage, encodeAnthropicUsage } from './usage/encode-anthropic-usage';
export { describeAnthropicOpenAPI } from './openapi/describe-anthropic-openapi';
export { anthropicErrorEnvelopeSchema, anthropicMessageSchema } from './openapi/anthropic-openapi-schemas';
