import type { Gateway } from '@switchyard/express';
import express, { type Express } from 'express';

/** An Express app serving the gateway at the root, plus `GET /healthz`. */
export function createApp(gateway: Gateway): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/healthz', (_request, response) => {
    response.json({ status: 'ok' });
  });
  app.use(gateway);
  return app;
}
