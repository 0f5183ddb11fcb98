export type { Principal } from './auth/authenticate';
export type { Limiter, Release } from './limits/limiter';
export { INTERFACE_PROTOCOLS, type GatewayConfig, type GatewayConfigInput } from './config/gateway-config';
export { ConfigError, parseGatewayConfig } from './config/parse-gateway-config';
export { createEngine, type Engine, type EngineOptions } from './create-engine';
export type { FrameSink } from './generation/frame-sink';
export type { UsageRecord, UsageRecorder } from './usage/usage-record';
