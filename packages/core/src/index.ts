export { assertNever } from './assert-never';
export { closestName } from './closest-name';
export type {
  FilePart,
  ImagePart,
  OutputPart,
  ReasoningPart,
  RefusalPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from './generation/content-part';
export type { AssistantMessage, Message, SystemMessage, ToolMessage, UserMessage } from './generation/message';
export type { CacheControl } from './generation/cache-control';
export type { ToolChoice } from './generation/tool-choice';
export type { ToolDefinition } from './generation/tool-definition';
export type { FinishReason, UnifiedFinishReason } from './generation/finish-reason';
export type { GenerationRequest, ReasoningEffort, ResponseFormat } from './generation/generation-request';
export type { GenerationResponse } from './generation/generation-response';
export type { StreamEvent, StreamEventType } from './generation/stream-event';
export { emptyUsage, type Usage } from './generation/usage';
export type {
  Codec,
  DecodeOptions,
  EncodeContext,
  EncodedError,
  EndpointFacts,
  ModelInfo,
  PassthroughStream,
  StreamDecoder,
  StreamEncoder,
  StreamFraming,
} from './codec/codec';
export type { UpstreamQuirks } from './codec/upstream-quirks';
export type { WebSocketClientFrame, WebSocketCodec } from './codec/web-socket-codec';
export type {
  CredentialScheme,
  ProtocolDescriptor,
  RateLimitReset,
  RequestShape,
  VersionHeader,
} from './codec/protocol-descriptor';
export type {
  ConversationCodec,
  ConversationExpansion,
  ConversationReferences,
  StoredItemPage,
  StoredItemQuery,
} from './codec/conversation-codec';
export type { OpenAPIDescribeOptions, OpenAPIDescription, OpenAPIEndpointKind } from './codec/openapi-description';
export type { Translated, TranslationWarning } from './codec/translation-warning';
export { createDroppedOptionsDescriber } from './codec/describe-dropped-options';
export {
  collectUnknownFields,
  describeUnknownFields,
  mergeUnknownFields,
  UNKNOWN_FIELDS_OPTION,
} from './codec/unknown-fields';
export { findForeignField, refuseForeignFields, type FoundForeignField } from './codec/refuse-foreign-fields';
export type { ForeignField, ForeignFields } from './codec/foreign-fields';
export { composeForeignFields, type ForeignFieldsSource } from './codec/compose-foreign-fields';
export type { Compaction, CompactionCodec, CompactionRequest, OpenedCompactions } from './codec/compaction-codec';
export { ERROR_CATALOGUE, type CatalogueEntry } from './errors/error-catalogue';
export { GATEWAY_ERROR_CODES, type ErrorSource, type GatewayErrorCode } from './errors/error-codes';
export {
  GatewayError,
  type GatewayErrorOptions,
  type UpstreamErrorDetails,
  type ValidationIssue,
} from './errors/gateway-error';
export { createValidationError, type SchemaIssue } from './errors/create-validation-error';
export { createUpstreamError, type UpstreamErrorOptions, type UpstreamFailureWords } from './errors/upstream-error-from-status';
export { ClientAbortedError } from './errors/client-aborted-error';
export { firstHeaderValue, headerValue, type HeaderMap } from './http/header-value';
export { retryAfterSeconds } from './http/retry-after-seconds';
export type { FieldPath } from './errors/field-path';
export { invalidParameter } from './errors/invalid-parameter';
export { unknownParameter } from './errors/unknown-parameter';
export { unsupportedParameter } from './errors/unsupported-parameter';
export { streamEndedEarly } from './errors/stream-ended-early';
export { unfinishedAnswerError } from './errors/unfinished-answer-error';
export { createId } from './ids/create-id';
export { isJSONObject, type JSONObject, type JSONValue } from './json';
export {
  isCount,
  isInRange,
  isNullishBoolean,
  isNullishCount,
  isNullishInRange,
  isNullishMember,
  isNullishNumber,
  isNullishString,
  isOptionalBoolean,
  isOptionalCount,
  isOptionalInRange,
  isOptionalNumber,
  isOptionalString,
} from './wire-value-checks';
export { spliceJSONString } from './splice-json-string';
export type { BuiltInProtocol, Protocol } from './protocol';
export type { SSEMessage } from './sse-message';
export { formatDataURL, parseDataURL } from './media/data-url';
export { isSecretHeader, redact, redactHeaders, redactURL, scrubSecrets } from './redact/redact';
export {
  createSecretRecogniser,
  REDACTED,
  secretRecogniser,
  type CutText,
  type LearningSecretRecogniser,
  type SecretRecogniser,
} from './redact/create-secret-recogniser';
export type {
  KindCredential,
  KindCredentialSource,
  KindTokenCount,
  OpenedUpstreamKind,
  SignableRequest,
  StreamFramer,
  UpstreamCall,
  UpstreamKind,
  UpstreamKindOpening,
} from './kind/upstream-kind';
export { openKeyCredential } from './kind/open-key-credential';
export { SECRET_SHAPES, type SecretShape } from './redact/secret-shapes';
export { boundClientText, CLIENT_VALUE_MAX_CHARS, quoteClientValue } from './redact/quote-client-value';
export { isShowableClientName, quoteClientName } from './redact/quote-client-name';
