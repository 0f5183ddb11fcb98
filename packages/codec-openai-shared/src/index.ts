export {
  decodeOpenAIError,
  encodeOpenAIError,
  encodeOpenAIErrorObject,
  mapOpenAIErrorCode,
  mapOpenAIErrorType,
} from './openai-error-envelope';
