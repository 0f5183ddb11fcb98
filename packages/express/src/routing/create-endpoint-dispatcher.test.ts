import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { createEndpointDispatcher } from './create-endpoint-dispatcher';

/** An app with the dispatcher in a Router of its own, a host route after it, and an error handler answering 500 with the message. */
function appWith(routes: readonly { method: string; path: string; handlers: RequestHandler[] }[]) {
  const dispatcher = createEndpointDispatcher();
  for (const route of routes) dispatcher.add(route.method, route.path, route.handlers);
  const router = express.Router();
  router.use(dispatcher.middleware);
  const app = express();
  app.use(router);
  app.all('/{*rest}', (_request, response) => void response.status(404).send('host'));
  const onError: ErrorRequestHandler = (error: Error, _request, response, _next) => void response.status(500).send(error.message);
  app.use(onError);
  return app;
}

const answer =
  (text: string): RequestHandler =>
  (_request, response) =>
    void response.status(200).send(text);

describe('createEndpointDispatcher', () => {
  it('matches a path without regard to case and with one trailing slash, as an Express route does', async () => {
    const app = appWith([{ method: 'POST', path: '/v1/messages', handlers: [answer('messages')] }]);
    for (const path of ['/v1/messages', '/V1/Messages', '/v1/messages/']) {
      const response = await request(app).post(path);
      expect([path, response.status, response.text]).toEqual([path, 200, 'messages']);
    }
    const twoSlashes = await request(app).post('/v1/messages//');
    expect([twoSlashes.status, twoSlashes.text]).toEqual([404, 'host']);
    const otherMethod = await request(app).get('/v1/messages');
    expect([otherMethod.status, otherMethod.text]).toEqual([404, 'host']);
  });

  it('serves HEAD with the GET route', async () => {
    const app = appWith([{ method: 'GET', path: '/v1/models', handlers: [answer('models')] }]);
    const response = await request(app).head('/v1/models');
    expect(response.status).toBe(200);
    expect(response.headers['content-length']).toBe('6');
  });

  it('runs a route’s handlers in order, next("route") going on to the next route of the same path', async () => {
    const seen: string[] = [];
    const app = appWith([
      {
        method: 'GET',
        path: '/v1/responses',
        handlers: [
          (_request, _response, next) => {
            seen.push('first');
            next('route');
          },
          answer('never'),
        ],
      },
      {
        method: 'GET',
        path: '/v1/responses',
        handlers: [
          (_request, _response, next) => {
            seen.push('second');
            next();
          },
          answer('second route'),
        ],
      },
    ]);
    const response = await request(app).get('/v1/responses');
    expect([response.status, response.text, seen]).toEqual([200, 'second route', ['first', 'second']]);
  });

  it('goes on to the host’s routes when every route hands on, or with next("router")', async () => {
    const handOn: RequestHandler = (_request, _response, next) => next();
    const leave: RequestHandler = (_request, _response, next) => next('router');
    const app = appWith([
      { method: 'POST', path: '/a', handlers: [handOn] },
      { method: 'POST', path: '/b', handlers: [leave, answer('never')] },
    ]);
    for (const path of ['/a', '/b']) {
      const response = await request(app).post(path);
      expect([path, response.status, response.text]).toEqual([path, 404, 'host']);
    }
  });

  it('hands a thrown error, a next(error) and a rejected promise to the error handler', async () => {
    const app = appWith([
      {
        method: 'POST',
        path: '/thrown',
        handlers: [
          () => {
            throw new Error('thrown');
          },
        ],
      },
      { method: 'POST', path: '/passed', handlers: [(_request, _response, next) => next(new Error('passed'))] },
      { method: 'POST', path: '/rejected', handlers: [async () => Promise.reject(new Error('rejected'))] },
    ]);
    for (const path of ['/thrown', '/passed', '/rejected']) {
      const response = await request(app).post(path);
      expect([response.status, response.text]).toEqual([500, path.slice(1)]);
    }
  });
});
