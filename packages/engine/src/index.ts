export type { ClientAuthPolicy, Principal, RequestHeaders } from './auth/authenticate';
export type { Limiter, Release } from './limits/limiter';
// For other `Limiter` implementations (a shared Redis one): the same defaults, refusals and estimate.
export { createMemoryLimiter, type MemoryLimiterOptions } from './limits/create-memory-limiter';
export { DEFAULT_WINDOW_SECONDS } from './limits/create-rate-windows';
export { DEFAULT_QUOTA_PERIOD_HOURS } from './limits/create-quota-counter';
export { DEFAULT_QUEUE_TIMEOUT_MS, HOLD_AVERAGE_WEIGHT } from './limits/create-concurrency-gate';
export { estimateRetryAfterMs, type SlotWaitInput } from './limits/estimate-retry-after-ms';
export {
  noSlotRefusal,
  queueFullRefusal,
  queueTimeoutRefusal,
  quotaRefusal,
  requestsRefusal,
  tokensNeverFit,
  tokensRefusal,
  wholeTokens,
} from './limits/limit-refusals';
export type { GatewayConfig, GatewayConfigInput, InterfaceAuth, ResponseStoreConfig, UsageConfig } from './config/gateway-config';
export { ConfigError } from './config/config-error';
export { parseGatewayConfig, type ParseGatewayConfigOptions } from './config/parse-gateway-config';
export { PROVIDER_PRESETS } from './config/providers/provider-presets';
export type { ProviderPreset } from './config/providers/provider-preset';
export { parsePriceCatalog, type PriceCatalog } from './pricing/price-catalog';
export { SHIPPED_PRICE_CATALOG } from './pricing/shipped-price-catalog';
export type { ModelPricing } from './pricing/model-pricing';
export { describeUnknownKeys } from './config/describe-unknown-keys';
export { createEngine, type Engine } from './create-engine';
export type { TokenCountAnswer } from './admission/count-tokens';
export type { EngineOptions } from './engine-options';
export type { Clock, Schedule } from './clock/clock';
export { systemClock } from './clock/system-clock';
export type { Exchange, RequestStamp } from './exchange/exchange';
export type { ClientStop } from './interruption/create-interruptions';
export type { ConnectionResponses, ExchangeTransport } from './exchange/exchange-transport';
export { createConnectionResponses } from './conversations/connection-responses';
export type { StoredResponses } from './conversations/stored-responses';
export type { Endpoint, ProtocolRegistry } from './protocols/create-protocol-registry';
export type { StreamOutcome } from './generation/stream-observer';
export type { FrameSink } from './generation/frame-sink';
export type { FrameFormat } from './generation/frame-format';
export type { GenerationOutput } from './generation/generation-output';
export type { Route } from './routing/create-route-table';
export type { RequestOutcome, UsageRecord, UsageRecorder } from './usage/usage-record';
export {
  createUsageWriter,
  USAGE_COMMIT_DELAY_MS,
  type CommitScheduler,
  type QueuedCommit,
  type UsageWriter,
  type UsageWriterOptions,
} from './usage/create-usage-writer';
export { usageEntryOf } from './usage/usage-entry-of';
export type {
  AttemptEnding,
  AttemptStart,
  AttemptWatcher,
  EngineObserver,
  ExchangeStart,
  ExchangeWatcher,
  LedgerBatch,
  ObservedEnding,
} from './observation/engine-observer';
export { combineObservers } from './observation/combine-observers';
export type { CredentialHealthStore, HealthChannel, HealthMark } from './upstreams/health-store';
export type { AffinityPin, AffinityStore } from './affinity/affinity-store';
export { createMemoryAffinityStore } from './affinity/create-memory-affinity-store';
export type { AffinityMoveReason, AffinityOutcome } from './affinity/session-affinity';
export { deriveConversationKey } from './affinity/derive-conversation-key';
export { markSubject } from './upstreams/health-store';
export { createMemoryHealthStore } from './upstreams/create-memory-health-store';
export { DEFAULT_COOLDOWN_MS } from './upstreams/create-upstream-health';
export { SINGLE_CREDENTIAL_NAME, type DisabledReason } from './upstreams/credential-pool';
export type { CredentialHealthReport, CredentialState, UpstreamHealthReport } from './upstreams/report-upstream-health';
export type { Alert, AlertRules, AlertType } from './alerts/alert';
export { createAlerts, type Alerts, type AlertsOptions } from './alerts/create-alerts';
export { createAlertMonitor, type AlertContent, type AlertMonitor } from './alerts/create-alert-monitor';
export type { AlertObserverOptions } from './alerts/create-alert-observer';
export { deliverWebhook, type WebhookRuntime, type WebhookTarget } from './alerts/deliver-webhook';
export { signWebhookPayload, verifyWebhookSignature } from './alerts/sign-webhook-payload';
export { openLiveConfig, type ConfigSource, type LiveConfig, type LiveConfigOptions } from './live-config/open-live-config';
export { CONFIG_POLL_MS, type ConfigFollower, type ConfigFollowing } from './live-config/follow-config-versions';
