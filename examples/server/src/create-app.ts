import type { Gateway } from '@signalbox/express';
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { ReadinessReport } from './create-readiness-probe';

/**
 * Express's `trust proxy`: which hops' `X-Forwarded-*` headers to believe (a hop count, `true`, or
 * addresses, subnets and names such as `loopback`; https://expressjs.com/en/guide/behind-proxies.html).
 */
export type TrustProxy = boolean | number | string;

/** Where `GET /` sends a browser: the account panel's login. */
const PANEL_PATH = '/panel';

/**
 * An Express app serving the gateway at the root, the admin API under `/admin`, the account panel
 * under `/panel` (`GET /` and `HEAD /` redirect there), `GET /metrics` when given its router
 * (Prometheus, behind the admin token), `GET /healthz` (the process runs) and `GET /readyz` (its
 * store and other dependencies answer: 200, else 503). Every other path gets the gateway's JSON 404
 * in the caller's envelope; only the gateway's own paths (`/v1/…`) are recorded in the usage ledger.
 */
export function createApp(
  gateway: Gateway,
  adminRouter: Router,
  panel: RequestHandler,
  readiness: () => Promise<ReadinessReport>,
  options: { trustProxy?: TrustProxy; metricsRouter?: Router } = {},
): Express {
  const app = express();
  app.disable('x-powered-by');
  // Behind a load balancer, the client's address (the panel's login throttle) comes from X-Forwarded-For.
  if (options.trustProxy !== undefined) app.set('trust proxy', options.trustProxy);
  app.set('etag', false);
  // The gateway first: an API call is found in its one Map lookup without passing the path matching
  // of the routes below, and any path it does not claim leaves its Router at once for them.
  app.use(gateway);
  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  app.get('/readyz', async (_request, response) => {
    const { ready, checks } = await readiness();
    response.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not-ready', checks });
  });
  if (options.metricsRouter) app.use('/metrics', options.metricsRouter);
  app.use('/admin', adminRouter);
  app.use(PANEL_PATH, panel);
  // Express answers HEAD with the GET route: a client's `HEAD /` probe gets the redirect's headers, no body.
  app.get('/', (_request, response) => {
    response.redirect(302, PANEL_PATH);
  });
  app.use(gateway.notFoundHandler, gateway.errorHandler);
  return app;
}
