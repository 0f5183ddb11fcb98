export type { ClientAuthPolicy, Principal, RequestHeaders } from './auth/authenticate';
export type {
  Account,
  AccountPatch,
  AccountStore,
  ApiKeyPatch,
  ApiKeyRecord,
  KeyLimits,
  NewAccount,
  NewApiKey,
  Reservation,
} from './accounts/account-store';
export {
  digestsEqual,
  generateApiKey,
  hashApiKey,
  KEY_PREFIX_LENGTH,
  keyPrefix,
  looksLikeApiKey,
} from './accounts/api-key-secrets';
export { createMemoryAccountStore } from './accounts/create-memory-account-store';
export type { Limiter, Release } from './limits/limiter';
export {
  gatewayConfigSchema,
  type GatewayConfig,
  type GatewayConfigInput,
  type InterfaceAuth,
  type RouteConfig,
  type UpstreamConfig,
} from './config/gateway-config';
export { ConfigError, parseGatewayConfig } from './config/parse-gateway-config';
export { createEngine, type Engine, type EngineOptions } from './create-engine';
export type { Exchange } from './exchange/open-exchange';
export type { Endpoint, ProtocolRegistry } from './protocols/create-protocol-registry';
export type { StreamOutcome } from './generation/stream-observer';
export type { FrameSink } from './generation/frame-sink';
export { WARNINGS_HEADER } from './generation/format-warnings-header';
export type { GenerationOutput } from './generation/generation-output';
export type { Route } from './routing/create-route-table';
export type { RequestOutcome, UsageRecord, UsageRecorder } from './usage/usage-record';
export { createAdminService, type AdminService, type AdminServiceOptions } from './admin/create-admin-service';
export { presentAccount, presentKey } from './admin/present-admin-records';
export { digestAdminToken, generateAdminToken, looksLikeAdminToken } from './accounts/admin-tokens';
export { estimateInputTokens } from './admission/estimate-input-tokens';
export { computeCostMicros } from './usage/compute-cost';
export { keyLimitsSchema } from './config/gateway-config';
export { createMemoryLimiter, type MemoryLimiterOptions } from './limits/create-memory-limiter';
