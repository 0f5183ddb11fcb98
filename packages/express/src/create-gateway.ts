import type { AccountStore } from '@switchyard/accounts';
import type { Codec, Protocol } from '@switchyard/core';
import {
  createEngine,
  parseGatewayConfig,
  type Engine,
  type GatewayConfig,
  type GatewayConfigInput,
  type Limiter,
  type UsageRecorder,
} from '@switchyard/engine';
import { Router } from 'express';
import { createAccessLogMiddleware } from './access-log/create-access-log-middleware';
import { createAuthMiddleware } from './auth/create-auth-middleware';
import { createTokenCountHandler } from './count-tokens/create-token-count-handler';
import { createBodyMiddleware } from './body/create-body-middleware';
import { createErrorHandler } from './errors/create-error-handler';
import { createNotFoundHandler } from './errors/create-not-found-handler';
import type { GatewayLogger } from './gateway-logger';
import { createGenerationHandler } from './generation/create-generation-handler';
import { createModelsHandler } from './models/create-models-handler';
import { createRequestIdMiddleware } from './request-id/create-request-id-middleware';

export type GatewayOptions = {
  /** The gateway config (validated here; a bad one throws `ConfigError` naming each bad path). */
  config: GatewayConfigInput | GatewayConfig;
  /** One codec per protocol; only interfaces with a codec get an endpoint. */
  codecs: Partial<Record<Protocol, Codec>>;
  /** Keys, accounts and balances (`createMemoryAccountStore()`, or the SQLite / PostgreSQL stores). */
  store: AccountStore;
  /** Per-key limits; default in process memory. */
  limiter?: Limiter;
  /** Receives one record per request, refused ones included. Must not throw or block. */
  recordUsage?: UsageRecorder;
  logger?: GatewayLogger;
  /** Where upstream keys are read from. Default `process.env`. */
  environment?: NodeJS.ProcessEnv;
  /** Waits between upstream attempts (tests pass one that records instead of waiting). Default: a real timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The clock for key expiry, latency and the default limiter. Default `Date.now`. */
  now?: () => number;
};

/** The composed Router, with its engine and a `close()` that releases upstream connections. */
export type Gateway = Router & { engine: Engine; close(): Promise<void> };

const ENDPOINTS: ReadonlyArray<readonly [string, Protocol]> = [
  ['/v1/responses', 'openai-responses'],
  ['/v1/messages', 'anthropic-messages'],
  ['/v1/chat/completions', 'openai-chat'],
];

/**
 * Every middleware composed into one Router: request id → auth → JSON body → generation, per
 * interface; `GET /v1/models`; 404s with hints; one error handler. Mount it at `/` or under a prefix.
 *
 * @example app.use('/llm', createGateway({ config, codecs, store }))
 */
export function createGateway(options: GatewayOptions): Gateway {
  const config = parseGatewayConfig(options.config);
  const engine = createEngine({
    config,
    codecs: options.codecs,
    store: options.store,
    ...(options.limiter && { limiter: options.limiter }),
    ...(options.recordUsage && { recordUsage: options.recordUsage }),
    ...(options.environment && { environment: options.environment }),
    ...(options.sleep && { sleep: options.sleep }),
    ...(options.now && { now: options.now }),
    onRecorderError: error => options.logger?.error({ err: error }, 'usage recorder failed'),
  });
  const router = Router();
  if (options.logger) router.use(createAccessLogMiddleware({ logger: options.logger }));
  const authenticate = createAuthMiddleware({ engine });
  const parseBody = createBodyMiddleware({ limitBytes: config.bodyLimitBytes });
  const generateAnswer = createGenerationHandler({ engine, keepAliveMs: config.keepAliveMs });
  for (const [path, protocol] of ENDPOINTS) {
    if (!options.codecs[protocol]) continue;
    router.post(path, createRequestIdMiddleware({ protocol }), authenticate, parseBody, generateAnswer);
  }
  if (options.codecs['anthropic-messages']?.decodeTokenCountRequest) {
    const messages = createRequestIdMiddleware({ protocol: 'anthropic-messages' });
    router.post('/v1/messages/count_tokens', messages, authenticate, parseBody, createTokenCountHandler({ engine }));
  }
  router.get('/v1/models', createModelsHandler({ engine, codecs: options.codecs }));
  router.use(createNotFoundHandler());
  router.use(createErrorHandler({ engine, codecs: options.codecs, ...(options.logger && { logger: options.logger }) }));
  return Object.assign(router, { engine, close: () => engine.close() });
}
