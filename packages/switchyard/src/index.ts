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
  ConfigError,
  parseGatewayConfig,
  type GatewayConfig,
  type GatewayConfigInput,
  type UsageRecord,
} from '@switchyard/engine';
export type { Gateway, GatewayLogger } from '@switchyard/express';
