export { authenticate, type MessagesAuthPolicy, type Principal, type RequestHeaders } from './auth/authenticate';
export { createMemoryKeyStore, generateApiKey, keyPrefix } from './auth/create-memory-key-store';
export type { ApiKeyRecord, KeyStore } from './auth/key-store';
export {
  gatewayConfigSchema,
  INTERFACE_PROTOCOLS,
  type GatewayConfig,
  type GatewayConfigInput,
  type InterfaceName,
  type RouteConfig,
  type UpstreamConfig,
} from './config/gateway-config';
export { ConfigError, parseGatewayConfig } from './config/parse-gateway-config';
export {
  createEngine,
  type Engine,
  type EngineOptions,
  type GenerationInput,
  type RefusalInput,
} from './create-engine';
export type { FrameSink } from './generation/frame-sink';
export { WARNINGS_HEADER } from './generation/format-warnings-header';
export type { GenerationOutput } from './generation/generation-output';
export { createRouteTable, type Route, type RouteTable } from './routing/create-route-table';
export type { RequestOutcome, UsageRecord, UsageRecorder } from './usage/usage-record';
