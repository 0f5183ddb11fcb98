export { createGateway, type SwitchyardOptions } from './create-gateway';
export { builtInCodecs } from './built-in-codecs';
export { anthropicMessagesCodec } from '@switchyard/codec-anthropic-messages';
export { openAIChatCodec } from '@switchyard/codec-openai-chat';
export { openAIResponsesCodec } from '@switchyard/codec-openai-responses';
export { GatewayError, redact, redactHeaders, redactURL, type Codec } from '@switchyard/core';
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
} from '@switchyard/accounts';
export {
  combineObservers,
  ConfigError,
  parseGatewayConfig,
  type EngineObserver,
  type GatewayConfig,
  type GatewayConfigInput,
  type UsageRecord,
} from '@switchyard/engine';
// `GET /metrics` for a registry of `@switchyard/metrics-prometheus` (or any with `metrics()` and `contentType`).
export { createMetricsRouter, type Gateway, type GatewayLogger, type MetricsRouterOptions } from '@switchyard/express';
