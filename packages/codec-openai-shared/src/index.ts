export { createOpenAIBodyError, decodeOpenAIError, encodeOpenAIError, encodeOpenAIErrorObject } from './openai-error-envelope';
export { encodeOpenAIModelList } from './encode-openai-model-list';
export { encodeOpenAIResponseFormat } from './encode-openai-response-format';
export { checkOpenAIToolName } from './check-openai-tool-name';
export { setOpenAIPromptCacheKey } from './set-openai-prompt-cache-key';
export { describeOpenAIModelsOperation, describeOpenAISharedComponents, OPENAI_OPENAPI_NAMES } from './openapi/describe-openai-openapi';
export { toOpenAPISchema } from './openapi/to-openapi-schema';
export { modelIdSchema } from './openapi/model-id-schema';
export { readOpenAIRateLimitResets } from './read-openai-rate-limit-resets';
