import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * The gateway's fixed-path endpoints in one middleware: the method and path are looked up in a Map,
 * and the handlers of the route found run in order, as Express would run them, without a Router
 * layer (and its path matching) per endpoint on every request.
 */
export type EndpointDispatcher = {
  /**
   * Adds a route for `method` (upper case) and a fixed `path`. Several routes on one method and path
   * run in the order added, each handing on to the next with `next('route')`, as Express's do.
   */
  add(method: string, path: string, handlers: readonly RequestHandler[]): void;
  /** Mount first in the Router: a request no route claims, or that every route hands on, goes on. */
  middleware: RequestHandler;
};

/**
 * Matches as an Express 5 Router with its default options does: case-insensitive, one trailing
 * slash optional, `HEAD` served by a `GET` route when there is no `HEAD` route. Handlers follow
 * Express's contract: `next()` runs the route's next handler (then the next route), `next('route')`
 * the next route, `next('router')` and `next(error)` leave at once, and a rejected promise is
 * `next(error)`.
 *
 * @example const dispatcher = createEndpointDispatcher(); dispatcher.add('POST', '/v1/messages', handlers); router.use(dispatcher.middleware)
 */
export function createEndpointDispatcher(): EndpointDispatcher {
  const routes = new Map<string, (readonly RequestHandler[])[]>();
  return {
    add(method, path, handlers) {
      const key = routeKey(method, path);
      routes.set(key, [...(routes.get(key) ?? []), handlers]);
    },
    middleware: function endpointDispatcher(request, response, next) {
      const found = routes.get(routeKey(request.method, request.path)) ?? (request.method === 'HEAD' ? routes.get(routeKey('GET', request.path)) : undefined);
      if (!found) return next();
      runRoutes(found, request, response, next);
    },
  };
}

/** A route's Map key: the method and the path in lower case, without one trailing slash. */
function routeKey(method: string, path: string): string {
  const lower = path.toLowerCase();
  return `${method} ${lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower}`;
}

/** Runs the routes' handlers in order until one answers, hands on an error, or all have handed on. */
function runRoutes(routes: readonly (readonly RequestHandler[])[], request: Request, response: Response, done: NextFunction): void {
  let route = 0;
  let handler = 0;
  const fail = (error: unknown): void => next(error || new Error('Rejected promise'));
  const next = (signal?: unknown): void => {
    if (signal === 'route') {
      route += 1;
      handler = 0;
    } else if (signal) {
      return done(signal);
    }
    while (route < routes.length && handler >= routes[route]!.length) {
      route += 1;
      handler = 0;
    }
    const handle = routes[route]?.[handler++];
    if (!handle) return done();
    try {
      const result: unknown = handle(request, response, next);
      if (isThenable(result)) result.then(undefined, fail);
    } catch (error) {
      next(error);
    }
  };
  next();
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
