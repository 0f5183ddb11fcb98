import { CASE_DEFAULT_KEY_LIMITS, CASE_ROUTES, type AdminAnswer, type AdminCaller } from '@signalbox/accounts/testing';
import request from 'supertest';
import { startWithConfig } from '../errors/refusal-helpers';
import type { TestGateway } from './start-test-gateway';

/**
 * The test gateway with the authorization cases' routes as real simulator routes (`open-model` for
 * every group, `silver-model` for `silver`, `gold-model` and `gold-plus-model` for `gold`) beside
 * the defaults, and `CASE_DEFAULT_KEY_LIMITS` as `limits.default`.
 */
export function startAuthorizationGateway(): Promise<TestGateway> {
  return startWithConfig(config => ({
    ...config,
    routes: [
      ...config.routes,
      ...CASE_ROUTES.map(route => ({
        model: route.model,
        interfaces: ['responses', 'messages', 'chat'],
        targets: [{ upstream: 'simulator-messages', model: 'sim-1' }],
        ...(route.groups && { groups: [...route.groups] }),
      })),
    ],
    limits: { default: { ...CASE_DEFAULT_KEY_LIMITS } },
  }));
}

/** Admin API calls over HTTP with one console token; a refusal's `code` and `param` are read from its envelope. */
export function adminHTTPCaller(url: string, token: string): AdminCaller {
  return async call => {
    const [method, pattern] = call.route.split(' ') as ['GET' | 'POST' | 'PATCH', string];
    const path = `/admin${pattern.replace(':id', encodeURIComponent(call.id ?? ''))}`;
    const started = request(url)[method === 'GET' ? 'get' : method === 'POST' ? 'post' : 'patch'](path).set({ authorization: `Bearer ${token}` });
    const response = method === 'GET' ? await started : await started.send(call.body ?? {});
    const body = response.body as Record<string, unknown> & { code?: string; request_id?: string; error?: { param?: string | null } };
    const answer: AdminAnswer = { status: response.status, body };
    if (response.status < 400) return answer;
    if (body.request_id !== response.headers['x-request-id']) throw new Error(`refusal without its request id: ${JSON.stringify(body).slice(0, 200)}`);
    return { ...answer, ...(body.code !== undefined && { code: body.code }), ...(typeof body.error?.param === 'string' && { param: body.error.param }) };
  };
}
