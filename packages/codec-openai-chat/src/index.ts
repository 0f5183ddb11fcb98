export { openAIChatCodec } from './openai-chat-codec';
export { decodeOpenAIChatRequest } from './request/decode-openai-chat-request';
export { encodeOpenAIChatRequest } from './request/encode-openai-chat-request';
export { decodeOpenAIChatResponse } from './response/decode-openai-chat-response';
export { encodeOpenAIChatResponse } from './response/encode-openai-chat-response';
export { createOpenAIChatStreamDecoder } from './stream/decode-openai-chat-stream';
export { createOpenAIChatStreamEncoder } from './stream/encode-openai-chat-stream';
export {
  decodeOpenAIChatFinishReason,
  encodeOpenAIChatFinishReason,
  type OpenAIChatFinishReason,
} from './openai-chat-finish-reason';
export { decodeOpenAIChatUsage, encodeOpenAIChatUsage } from './openai-chat-usage';
export { clientRequestedUsage, getOpenAIChatOptions } from './openai-chat-options';
export { toOpenAIChatToolCallId } from './request/to-openai-chat-tool-call-id';
export { openAIChatRequestSchema, type OpenAIChatRequest } from './request/openai-chat-request-schema';
export { describeOpenAIChatOpenAPI } from './openapi/describe-openai-chat-openapi';
export { openAIChatChunkEventSchema, openAIChatCompletionSchema } from './openapi/openai-chat-openapi-schemas';
