import { boundClientText, GatewayError } from '@signalbox/core';
import type { AdminService, ConsoleIdentity } from '@signalbox/accounts';
import type { Engine } from '@signalbox/engine';
import { Router } from 'express';
import { openRequestContext } from '../context/open-request-context';
import { createErrorHandler } from '../errors/create-error-handler';
import { mountAdminOperations } from './mount-admin-operations';

export type AdminRouterOptions = {
  admin: AdminService;
  /** The gateway's engine: its Bearer interface's envelope renders the admin API's errors. */
  engine: Engine;
};

/**
 * The admin JSON API over `AdminService`, behind `Authorization: Bearer <console token>`: the admin
 * token sees everything, an account's console token only its own account (another account's
 * records answer 404 like missing ones; admin-only calls 403 `ADMIN_TOKEN_REQUIRED`).
 * - `GET /me`, `GET /routes`;
 * - `GET|POST /accounts`, `GET|PATCH /accounts/:id`, `POST /accounts/:id/balance`,
 *   `GET /accounts/:id/balance-events` (`?limit=&cursor=`);
 * - `GET|POST /keys` (`?accountId=`), `PATCH /keys/:id`;
 * - `GET|POST /console-tokens` (`?accountId=`), `PATCH /console-tokens/:id`;
 * - `GET /usage` (filters, `limit`, `cursor`; `format=csv` streams a CSV file), `GET /usage.csv`
 *   (the same file), `GET /usage/summary`;
 * - `GET /upstreams` (each upstream and credential with its health), `POST /upstreams/:id/enable`
 *   (body `{ credential }`): the admin token only.
 * These are `ADMIN_OPERATIONS` of `@signalbox/accounts`, which the panel mounts too. A created
 * key's or console token's secret is in the answer once. Errors use the envelope of the gateway's
 * Bearer interface (OpenAI's) with the service `code` and `request_id`; admin requests are never
 * billed or recorded.
 *
 * @example app.use('/admin', gateway.createAdminRouter(admin))
 */
export function createAdminRouter(options: AdminRouterOptions): Router {
  const { admin, engine } = options;
  const codec = engine.registry.bearerCodec;
  const router = Router();
  router.use(async function adminAuthMiddleware(request, response, next) {
    openRequestContext(engine, codec, request, response, { recorded: false });
    response.setHeader('cache-control', 'no-store');
    response.locals.consoleIdentity = await admin.authenticate(request.headers);
    next();
  });
  mountAdminOperations(router, { admin, identityOf: (_request, response) => response.locals.consoleIdentity as ConsoleIdentity });
  router.use(function adminNotFoundHandler(request) {
    throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: `No admin endpoint ${boundClientText(request.method, 20)} ${boundClientText(request.path)}.` });
  });
  router.use(createErrorHandler({ engine }));
  return router;
}
