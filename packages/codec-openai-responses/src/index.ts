export { openAIResponsesCodec } from './openai-responses-codec';
export { decodeOpenAIResponsesRequest } from './request/decode-openai-responses-request';
export {
  encodeOpenAIResponsesRequest,
  encodeOpenAIResponsesTextFormat,
  encodeOpenAIResponsesToolChoice,
} from './request/encode-openai-responses-request';
export { decodeOpenAIResponsesResponse } from './response/decode-openai-responses-response';
export { encodeOpenAIResponsesResponse } from './response/encode-openai-responses-response';
export { mapOpenAIResponsesFinishReason } from './response/map-openai-responses-finish-reason';
export {
  mapOpenAIResponsesStatus,
  type OpenAIResponsesTerminalStatus,
} from './response/map-openai-responses-status';
export { decodeOpenAIResponsesUsage, encodeOpenAIResponsesUsage } from './response/openai-responses-usage';
export { createOpenAIResponsesStreamDecoder } from './stream/decode-openai-responses-stream';
export { createOpenAIResponsesStreamEncoder } from './stream/encode-openai-responses-stream';
export { describeOpenAIResponsesOpenAPI } from './openapi/describe-openai-responses-openapi';
export {
  openAIResponsesCompactedSchema,
  openAIResponsesObjectSchema,
  openAIResponsesStreamEventSchema,
} from './openapi/openai-responses-openapi-schemas';
