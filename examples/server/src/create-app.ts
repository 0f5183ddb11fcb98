import type { Gateway } from '@switchyard/express';
import express, { type Express, type Router } from 'express';

/**
 * An Express app serving the gateway at the root, the admin API under `/admin`, the account panel
 * under `/panel`, and `GET /healthz`. Every other path gets the gateway's JSON 404 in the caller's
 * envelope.
 */
export function createApp(gateway: Gateway, adminRouter: Router, panelRouter: Router): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  app.use('/admin', adminRouter);
  app.use('/panel', panelRouter);
  app.use(gateway);
  app.use(gateway.notFoundHandler, gateway.errorHandler);
  return app;
}
