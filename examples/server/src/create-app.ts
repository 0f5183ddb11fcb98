import type { Gateway } from '@signalbox/express';
import express, { type Express, type Router } from 'express';
import type { ReadinessReport } from './create-readiness-probe';

/**
 * Express's `trust proxy`: which hops' `X-Forwarded-*` headers to believe (a hop count, `true`, or
 * addresses, subnets and names such as `loopback`; https://expressjs.com/en/guide/behind-proxies.html).
 */
export type TrustProxy = boolean | number | string;

/**
 * An Express app serving the gateway at the root, the admin API under `/admin`, the account panel
 * under `/panel`, `GET /metrics` when given its router (Prometheus, behind the admin token), `GET /healthz` (the process runs) and `GET /readyz` (its store and other
 * dependencies answer: 200, else 503). Every other path gets the gateway's JSON 404 in the caller's
 * envelope.
 */
export function createApp(
  gateway: Gateway,
  adminRouter: Router,
  panelRouter: Router,
  readiness: () => Promise<ReadinessReport>,
  options: { trustProxy?: TrustProxy; metricsRouter?: Router } = {},
): Express {
  const app = express();
  app.disable('x-powered-by');
  // Behind a load balancer, the client's address (the panel's login throttle) comes from X-Forwarded-For.
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);
  app.set('etag', false);
  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  app.get('/readyz', async (_request, response) => {
    const { ready, checks } = await readiness();
    response.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not-ready', checks });
  });
  if (options.metricsRouter) app.use('/metrics', options.metricsRouter);
  app.use('/admin', adminRouter);
  app.use('/panel', panelRouter);
  app.use(gateway);
  app.use(gateway.notFoundHandler, gateway.errorHandler);
  return app;
}
