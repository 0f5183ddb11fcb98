export type { ClientAuthPolicy, Principal, RequestHeaders } from './auth/authenticate';
export type { Limiter, Release } from './limits/limiter';
export type { GatewayConfig, GatewayConfigInput, InterfaceAuth, ResponseStoreConfig, UsageConfig } from './config/gateway-config';
export { ConfigError, parseGatewayConfig } from './config/parse-gateway-config';
export { createEngine, type Engine, type EngineOptions } from './create-engine';
export type { Exchange } from './exchange/open-exchange';
export type { Endpoint, ProtocolRegistry } from './protocols/create-protocol-registry';
export type { StreamOutcome } from './generation/stream-observer';
export type { FrameSink } from './generation/frame-sink';
export type { GenerationOutput } from './generation/generation-output';
export type { Route } from './routing/create-route-table';
export type { RequestOutcome, UsageRecord, UsageRecorder } from './usage/usage-record';
export {
  createUsageWriter,
  DEFAULT_MAX_QUEUED_COMMITS,
  type CommitScheduler,
  type QueuedCommit,
  type UsageWriter,
  type UsageWriterOptions,
} from './usage/create-usage-writer';
export { usageEntryOf } from './usage/usage-entry-of';
