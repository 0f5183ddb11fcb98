import { createId, GatewayError, invalidParameter } from '@signalbox/core';
import type { AdminService, ConsoleIdentity } from '@signalbox/accounts';
import type { Engine } from '@signalbox/engine';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { createBodyMiddleware } from '../body/create-body-middleware';
import { getGatewayContext, setGatewayContext } from '../context/gateway-context';
import { createErrorHandler } from '../errors/create-error-handler';
import { writeCSVResponse } from './write-csv-response';

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
 * - `GET /usage` (filters, `limit`, `cursor`; `format=csv` streams a CSV file), `GET /usage/summary`.
 * A created key's or console token's secret is in the answer once. Errors use the envelope of the
 * gateway's Bearer interface (OpenAI's) with the service `code` and `request_id`; admin requests
 * are never billed or recorded.
 *
 * @example app.use('/admin', gateway.createAdminRouter(admin))
 */
export function createAdminRouter(options: AdminRouterOptions): Router {
  const { admin, engine } = options;
  const codec = engine.registry.bearerCodec;
  const router = Router();
  router.use(async function adminAuthMiddleware(request, response, next) {
    const requestId = createId('req_');
    setGatewayContext(request, { requestId, startedAt: Date.now(), codec });
    response.setHeader('x-request-id', requestId);
    response.setHeader('cache-control', 'no-store');
    response.locals.consoleIdentity = await admin.authenticate(request.headers);
    next();
  });
  const body = createBodyMiddleware({ limitBytes: 64 * 1024 });
  const send = (status: number, run: (identity: ConsoleIdentity, request: Request) => Promise<unknown>): RequestHandler =>
    async function adminHandler(request, response) {
      getGatewayContext(request);
      response.status(status).json(await run(identityOf(response), request));
    };
  const id = (request: Request) => String(request.params.id);
  router.get('/me', send(200, identity => admin.me(identity)));
  router.get('/routes', send(200, identity => admin.listRoutes(identity)));
  router.get('/accounts', send(200, identity => admin.listAccounts(identity)));
  router.post('/accounts', body, send(201, (identity, request) => admin.createAccount(identity, request.body)));
  router.get('/accounts/:id', send(200, (identity, request) => admin.getAccount(identity, id(request))));
  router.patch('/accounts/:id', body, send(200, (identity, request) => admin.updateAccount(identity, id(request), request.body)));
  router.post('/accounts/:id/balance', body, send(200, (identity, request) => admin.adjustBalance(identity, id(request), request.body)));
  router.get('/accounts/:id/balance-events', send(200, (identity, request) => admin.listBalanceEvents(identity, id(request), request.query)));
  router.get('/keys', send(200, (identity, request) => admin.listKeys(identity, accountIdQuery(request))));
  router.post('/keys', body, send(201, (identity, request) => admin.createKey(identity, request.body)));
  router.patch('/keys/:id', body, send(200, (identity, request) => admin.updateKey(identity, id(request), request.body)));
  router.get('/console-tokens', send(200, (identity, request) => admin.listConsoleTokens(identity, accountIdQuery(request))));
  router.post('/console-tokens', body, send(201, (identity, request) => admin.createConsoleToken(identity, request.body)));
  router.patch('/console-tokens/:id', body, send(200, (identity, request) => admin.updateConsoleToken(identity, id(request), request.body)));
  router.get('/usage/summary', send(200, (identity, request) => admin.summarizeUsage(identity, request.query)));
  router.get('/usage', async function usageHandler(request, response) {
    const { format, ...query } = request.query;
    if (format === undefined || format === 'json') {
      response.status(200).json(await admin.listUsage(identityOf(response), query));
      return;
    }
    if (format !== 'csv') throw invalidParameter('format', 'must be json or csv');
    await writeCSVResponse(response, await admin.exportUsageCsv(identityOf(response), query), 'usage.csv');
  });
  router.use(function adminNotFoundHandler(request) {
    throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: `No admin endpoint ${request.method.slice(0, 20)} ${request.path.slice(0, 200)}.` });
  });
  router.use(createErrorHandler({ engine }));
  return router;
}

function identityOf(response: Response): ConsoleIdentity {
  return response.locals.consoleIdentity as ConsoleIdentity;
}

function accountIdQuery(request: Request): string | undefined {
  return typeof request.query.accountId === 'string' ? request.query.accountId : undefined;
}
