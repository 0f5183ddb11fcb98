export { createGateway, type SignalboxOptions } from './create-gateway';
export { builtInCodecs } from './built-in-codecs';
export { builtInKinds } from './built-in-kinds';
export { azureOpenAIKind, createAzureOpenAIKind, type AzureOpenAIKindOptions } from '@signalbox/kind-azure-openai';
export { bedrockKind, bedrockAuthSettingsSchema, type BedrockAuthSettings } from '@signalbox/kind-bedrock';
export { createVertexKind, vertexKind, type VertexKindOptions } from '@signalbox/kind-vertex';
export { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
export { openAIChatCodec } from '@signalbox/codec-openai-chat';
export { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
export { geminiCodec } from '@signalbox/codec-google-gemini';
export { GatewayError, redact, redactHeaders, redactURL, type Codec, type UpstreamKind } from '@signalbox/core';
export {
  ADMIN_IDENTITY,
  createAdminService,
  createMemoryAccountStore,
  digestAdminToken,
  generateAdminToken,
  generateApiKey,
  type AccountStore,
  type AdminService,
  type ConsoleIdentity,
} from '@signalbox/accounts';
export {
  combineObservers,
  ConfigError,
  parseGatewayConfig,
  systemClock,
  type Clock,
  type EngineObserver,
  type GatewayConfig,
  type GatewayConfigInput,
  type UsageRecord,
} from '@signalbox/engine';
// `GET /metrics` for a registry of `@signalbox/metrics-prometheus` (or any with `metrics()` and `contentType`).
export { createMetricsRouter, type Gateway, type GatewayLogger, type MetricsRouterOptions } from '@signalbox/express';
