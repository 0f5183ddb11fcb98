import { GatewayError } from '@signalbox/core';
import type { AdminService } from '@signalbox/accounts';
import type { Engine } from '@signalbox/engine';
import { Router } from 'express';
import { openRequestContext } from '../context/open-request-context';
import { createErrorHandler } from '../errors/create-error-handler';

/** What the router serves: a prom-client `Registry`, or anything that renders the text format the same way. */
export type MetricsSource = {
  /** The exposition text of every metric, their scrape-time gauges read first. */
  metrics(): Promise<string>;
  /** Its content type: `text/plain; version=0.0.4; charset=utf-8` for the Prometheus text format. */
  readonly contentType: string;
};

export type MetricsRouterOptions = {
  /** What to serve: `createPrometheusMetrics(...).exposition` (its registry, made at the first scrape), or any registry. */
  registry: MetricsSource;
  /** The gateway's engine: its Bearer interface's envelope renders the refusals. */
  engine: Engine;
  /**
   * Asks for the admin token (`Authorization: Bearer <console token>`; an account's console token
   * is refused with 403 `ADMIN_TOKEN_REQUIRED`: the metrics cover every account). Leave it out only
   * on a listener of its own that only the scraper can reach.
   */
  admin?: AdminService;
};

/**
 * `GET /metrics` for a Prometheus scraper, in its text format
 * (https://prometheus.io/docs/instrumenting/exposition_formats/), never cached, never billed or recorded.
 *
 * @example app.use('/metrics', createMetricsRouter({ registry: metrics.exposition, engine: gateway.engine, admin }))
 */
export function createMetricsRouter(options: MetricsRouterOptions): Router {
  const { admin, engine, registry } = options;
  const codec = engine.registry.bearerCodec;
  const router = Router();
  router.get('/', async function metricsHandler(request, response) {
    openRequestContext(engine, codec, request, response, { recorded: false });
    response.setHeader('cache-control', 'no-store');
    if (admin) {
      const identity = await admin.authenticate(request.headers);
      if (identity.kind !== 'admin') {
        throw new GatewayError({ code: 'ADMIN_TOKEN_REQUIRED', message: 'Only the admin token may read the metrics; this console token belongs to one account.' });
      }
    }
    const text = await registry.metrics();
    response.status(200).type(registry.contentType).send(text);
  });
  router.use(createErrorHandler({ engine }));
  return router;
}
