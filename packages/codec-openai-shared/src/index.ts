export {
  decodeOpenAIError,
  encodeOpenAIError,
  encodeOpenAIErrorObject,
  mapOpenAIErrorCode,
  mapOpenAIErrorType,
} from './openai-error-envelope';
export { encodeOpenAIModelList } from './encode-openai-model-list';
export { encodeOpenAIResponseFormat } from './encode-openai-response-format';
export { checkOpenAIToolName } from './check-openai-tool-name';
