import { generateConsoleToken } from '@signalbox/accounts';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { createSecretRecogniser } from '@signalbox/core';
import type { Request, Response } from 'express';
import type { GatewayContext } from '../context/gateway-context';
import { createGateway } from '../create-gateway';
import { accessLineFields } from './access-line-fields';

const UPSTREAM_KEY = 'upstream-credential-without-a-shape';

/** The fields of the access line of a request with this URL and these headers, answered 200. */
function fieldsOf(originalUrl: string, headers: Record<string, string>, secrets = createSecretRecogniser([UPSTREAM_KEY]), context?: GatewayContext) {
  const request = { method: 'GET', originalUrl, headers } as unknown as Request;
  const response = { headersSent: true, statusCode: 200 } as unknown as Response;
  return accessLineFields(request, response, context, { latencyMs: 0, aborted: false }, undefined, secrets);
}

describe('accessLineFields', () => {
  const token = generateConsoleToken();

  it('replaces a console token or an upstream key in the path, the query, user-agent and accept', () => {
    const fields = fieldsOf(`/v1/models/${token}?note=${UPSTREAM_KEY}&key=abc`, {
      'user-agent': `probe/1.0 (${token})`,
      accept: `application/json, ${UPSTREAM_KEY}`,
      authorization: `Bearer ${token}`,
    });
    expect(fields).toMatchObject({
      path: '/v1/models/[redacted]?note=[redacted]&key=[redacted]',
      headers: { 'user-agent': 'probe/1.0 ([redacted])', accept: 'application/json, [redacted]' },
    });
    expect(JSON.stringify(fields)).not.toContain(token.slice(12));
  });

  it('cuts a long path after replacing, with the marker, so no piece of a secret at the cut survives', () => {
    const path = `/v1/${'p'.repeat(480)}${token}/${'q'.repeat(8_000)}`;
    // 484 characters before the token, the token as [redacted], 6 of what follows; the rest counted.
    expect(fieldsOf(path, {}).path).toBe(`/v1/${'p'.repeat(480)}[redacted]/qqqqq… (+${path.length - 484 - token.length - 6} chars)`);
  });

  it("logs the headers in which the request's protocol's SDKs describe themselves, and no other", () => {
    const headers = { 'x-stainless-lang': 'js', 'x-stainless-retry-count': '1', 'x-stainless-arch': 'x64', 'x-private-note': 'kept out', 'user-agent': 'OpenAI/JS 6.0.0' };
    const context = { requestId: 'req_1', startedAt: 0, codec: openAIChatCodec };
    expect(fieldsOf('/v1/chat/completions', headers, undefined, context).headers).toEqual({
      'user-agent': 'OpenAI/JS 6.0.0',
      'x-stainless-lang': 'js',
      'x-stainless-retry-count': '1',
    });
    expect(fieldsOf('/v1/chat/completions', headers).headers).toEqual({ 'user-agent': 'OpenAI/JS 6.0.0' });
  });

  it('takes the recogniser of the gateway’s engine, which knows the host’s secret values too', () => {
    const gateway = createGateway({
      config: { upstreams: { a: { protocol: 'openai-chat', baseURL: 'http://127.0.0.1:9' } }, routes: [{ model: 'm', interfaces: ['chat'], targets: [{ upstream: 'a', model: 'm' }] }] },
      codecs: [openAIChatCodec],
      secretValues: ['host-database-password'],
    });
    expect(gateway.engine.secrets.scrub('postgres://app:host-database-password@db/app')).toBe('postgres://app:[redacted]@db/app');
  });
});
