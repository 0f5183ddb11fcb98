import { createId, GatewayError } from '@switchyard/core';
import type { AdminService } from '@switchyard/accounts';
import type { Engine } from '@switchyard/engine';
import { Router, type Request, type RequestHandler } from 'express';
import { createBodyMiddleware } from '../body/create-body-middleware';
import { getGatewayContext, setGatewayContext } from '../context/gateway-context';
import { createErrorHandler } from '../errors/create-error-handler';

export type AdminRouterOptions = {
  admin: AdminService;
  /** The gateway's engine: its Bearer interface's envelope renders the admin API's errors. */
  engine: Engine;
};

/**
 * The admin JSON API over `AdminService`, behind `Authorization: Bearer <console token>`:
 * `GET|POST /accounts`, `PATCH /accounts/:id`, `POST /accounts/:id/balance`,
 * `GET|POST /keys` (`?accountId=`), `PATCH /keys/:id`. A created key's secret is in the answer once.
 * Errors use the envelope of the gateway's Bearer interface (OpenAI's) with the service `code` and
 * `request_id`; admin requests are never billed or recorded.
 *
 * @example app.use('/admin', gateway.createAdminRouter(admin))
 */
export function createAdminRouter(options: AdminRouterOptions): Router {
  const { admin, engine } = options;
  const codec = engine.registry.codecForCredentials(new Set());
  const router = Router();
  router.use(function adminAuthMiddleware(request, response, next) {
    const requestId = createId('req_');
    setGatewayContext(request, { requestId, startedAt: Date.now(), codec });
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
  router.use(function adminNotFoundHandler(request) {
    throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: `No admin endpoint ${request.method.slice(0, 20)} ${request.path.slice(0, 200)}.` });
  });
  router.use(createErrorHandler({ engine }));
  return router;
}
