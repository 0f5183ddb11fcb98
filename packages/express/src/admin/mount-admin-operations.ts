import { ADMIN_OPERATIONS, withOrigin, type AdminService, type ConsoleIdentity, type RequestOrigin } from '@signalbox/accounts';
import type { Request, RequestHandler, Response, Router } from 'express';
import { createBodyMiddleware } from '../body/create-body-middleware';
import { writeCSVResponse } from './write-csv-response';

export type AdminOperationsOptions = {
  admin: AdminService;
  /** The caller's identity, as the router's own authentication (Bearer token, panel session) found it. */
  identityOf: (request: Request, response: Response) => ConsoleIdentity;
  /** The largest JSON body an operation reads. Default 64 KiB. */
  bodyLimitBytes?: number;
};

/**
 * Mounts every admin operation (`ADMIN_OPERATIONS` of `@signalbox/accounts`) on `router`, after
 * whatever authenticates the caller: a body is read, as the gateway reads its own, only by the
 * operations that take one; JSON answers go out with the operation's status, CSV exports stream as
 * attachments. Errors go on to the router's error handler. Each call's identity carries where it
 * came from (client address as Express trusts it, user agent, request id) for the audit log.
 *
 * @example mountAdminOperations(router, { admin, identityOf: (_request, response) => response.locals.identity })
 */
export function mountAdminOperations(router: Router, options: AdminOperationsOptions): void {
  const { admin, identityOf } = options;
  const body = createBodyMiddleware({ limitBytes: options.bodyLimitBytes ?? 64 * 1024 });
  for (const operation of ADMIN_OPERATIONS) {
    const handler: RequestHandler = async function adminOperationHandler(request, response) {
      const identity = withOrigin(identityOf(request, response), requestOrigin(request, response));
      const answer = await operation.run(admin, identity, {
        params: request.params as Record<string, string>,
        query: request.query,
        body: request.body as unknown,
      });
      if ('csv' in answer) return writeCSVResponse(response, answer.csv, answer.filename);
      response.status(operation.status).json(answer.json);
    };
    router[operation.method](operation.path, ...(operation.body ? [body] : []), handler);
  }
}

/** Where a call came from: `request.ip` (so `trust proxy` decides), the user agent, and the `x-request-id` the router answers with. */
function requestOrigin(request: Request, response: Response): RequestOrigin {
  const requestId = response.getHeader('x-request-id');
  const userAgent = request.get('user-agent');
  return {
    ...(request.ip !== undefined && { ip: request.ip }),
    ...(userAgent !== undefined && { userAgent }),
    ...(typeof requestId === 'string' && { requestId }),
  };
}
