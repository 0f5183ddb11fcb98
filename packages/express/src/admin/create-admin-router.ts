import { createId } from '@switchyard/core';
import type { AdminService } from '@switchyard/accounts';
import type { Engine } from '@switchyard/engine';
import { Router, type Request, type RequestHandler } from 'express';
import type { Codec, Protocol } from '@switchyard/core';
import { createBodyMiddleware } from '../body/create-body-middleware';
import { getGatewayContext, setGatewayContext } from '../context/gateway-context';
import { createErrorHandler } from '../errors/create-error-handler';
import { createNotFoundHandler } from '../errors/create-not-found-handler';

export type AdminRouterOptions = {
  admin: AdminService;
  engine: Engine;
  codecs: Partial<Record<Protocol, Codec>>;
};

/**
 * The admin JSON API over `AdminService`, behind `Authorization: Bearer <console token>`:
 * `GET|POST /accounts`, `PATCH /accounts/:id`, `POST /accounts/:id/balance`,
 * `GET|POST /keys` (`?accountId=`), `PATCH /keys/:id`. A created key's secret is in the answer once.
 * Errors use the OpenAI-style envelope with the service `code` and `request_id`.
 *
 * @example app.use('/admin', createAdminRouter({ admin, engine, codecs }))
 */
export function createAdminRouter(options: AdminRouterOptions): Router {
  const { admin } = options;
  const router = Router();
  router.use(function adminAuthMiddleware(request, response, next) {
    const requestId = createId('req_');
    setGatewayContext(request, { requestId, startedAt: Date.now(), protocol: 'openai-responses', recordedElsewhere: true });
    response.setHeader('x-request-id', requestId);
    response.setHeader('cache-control', 'no-store');
    admin.authenticate(request.headers);
    next();
  });
  const body = createBodyMiddleware({ limitBytes: 64 * 1024 });
  const send = (status: number, run: (request: Request) => Promise<unknown>): RequestHandler =>
    async function adminHandler(request, response) {
      getGatewayContext(request);
      response.status(status).json(await run(request));
    };
  router.get('/accounts', send(200, () => admin.listAccounts()));
  router.post('/accounts', body, send(201, request => admin.createAccount(request.body)));
  router.patch('/accounts/:id', body, send(200, request => admin.updateAccount(String(request.params.id), request.body)));
  router.post('/accounts/:id/balance', body, send(200, request => admin.adjustBalance(String(request.params.id), request.body)));
  router.get('/keys', send(200, request => admin.listKeys(typeof request.query.accountId === 'string' ? request.query.accountId : undefined)));
  router.post('/keys', body, send(201, request => admin.createKey(request.body)));
  router.patch('/keys/:id', body, send(200, request => admin.updateKey(String(request.params.id), request.body)));
  router.use(createNotFoundHandler());
  router.use(createErrorHandler({ engine: options.engine, codecs: options.codecs }));
  return router;
}
