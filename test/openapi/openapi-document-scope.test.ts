import { createAdminService, createMemoryAccountStore } from '@signalbox/accounts';
import type { Codec, OpenAPIDescription } from '@signalbox/core';
import { buildOpenAPIDocument, createGateway, type Gateway } from '@signalbox/express';
import express from 'express';
import request from 'supertest';
import { anthropicMessagesCodec, openAIChatCodec, openAIResponsesCodec } from 'signalbox';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';
import { toyCodec } from '../helpers/toy-codec';
import { validateOpenAPIDocument } from '../helpers/validate-openapi-document';

type Document = { servers: { url: string }[]; paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, unknown> } };

/** No request reaches an upstream in these tests: the address only has to be a valid config. */
const config = (interfaces: string[]) => ({
  upstreams: { chat: { protocol: 'openai-chat' as const, baseURL: 'http://127.0.0.1:9/v1' } },
  routes: [{ model: 'team-default', interfaces, targets: [{ upstream: 'chat', model: 'upstream-model' }] }],
});

const pathsOf = (document: Document) => Object.keys(document.paths).filter(path => !path.startsWith('/admin/'));

describe('which endpoints the OpenAPI document lists, and where it is served', () => {
  const gateways: Gateway[] = [];
  const hosts: LoopbackServer[] = [];
  const gatewayWith = (codecs: readonly Codec[], interfaces: string[]) => {
    const gateway = createGateway({ config: config(interfaces), codecs });
    gateways.push(gateway);
    return gateway;
  };
  afterAll(async () => {
    await Promise.all(hosts.map(host => host.close()));
    await Promise.all(gateways.map(gateway => gateway.close()));
  });

  it('lists only the endpoints of the codecs the gateway was given', () => {
    const document = buildOpenAPIDocument({ engine: gatewayWith([openAIChatCodec], ['chat']).engine }) as Document;
    expect(pathsOf(document)).toEqual(['/v1/chat/completions', '/v1/models']);
    expect(Object.keys(document.components.schemas)).not.toContain('MessagesRequest');
    expect(Object.keys(document.components.schemas)).not.toContain('ResponsesRequest');
    expect(validateOpenAPIDocument(document).valid).toBe(true);
  });

  it('leaves out the endpoints of a codec without describeOpenAPI and keeps the others', () => {
    const document = buildOpenAPIDocument({ engine: gatewayWith([openAIChatCodec, toyCodec], ['chat', 'toy']).engine }) as Document;
    expect(pathsOf(document)).toEqual(['/v1/chat/completions', '/v1/models']);
  });

  it('puts the admin API under the path the host names, or leaves it out', () => {
    const { engine } = gatewayWith([openAIResponsesCodec, anthropicMessagesCodec, openAIChatCodec], ['responses', 'messages']);
    const atOps = buildOpenAPIDocument({ engine, adminPath: '/ops' }) as Document;
    expect(Object.keys(atOps.paths)).toEqual(expect.arrayContaining(['/ops/usage', '/ops/keys/{id}']));
    expect(Object.keys(atOps.paths).filter(path => path.startsWith('/admin/'))).toEqual([]);
    const without = buildOpenAPIDocument({ engine, adminPath: false }) as Document;
    expect(Object.keys(without.paths).filter(path => !path.startsWith('/v1/'))).toEqual([]);
  });

  it('lists every route of the admin router, and no other admin path', () => {
    const gateway = gatewayWith([openAIChatCodec], ['chat']);
    const router = gateway.createAdminRouter(createAdminService({ store: createMemoryAccountStore(), adminTokenDigests: [] }));
    type Layer = { route?: { path: string; methods: Record<string, boolean> } };
    const served = (router.stack as Layer[]).flatMap(({ route }) =>
      route ? Object.keys(route.methods).map(method => `${method} /admin${route.path.replaceAll(':id', '{id}')}`) : [],
    );
    const document = buildOpenAPIDocument({ engine: gateway.engine }) as Document;
    const documented = Object.entries(document.paths).flatMap(([path, item]) => (path.startsWith('/admin/') ? Object.keys(item).map(method => `${method} ${path}`) : []));
    expect(served).toHaveLength(30);
    expect(documented.sort()).toEqual(served.sort());
  });

  it('refuses two codecs that declare one component name with different content', () => {
    const clash = (description: OpenAPIDescription): OpenAPIDescription => ({
      ...description,
      components: { ...description.components, schemas: { ...description.components.schemas, OpenAIError: { type: 'string' } } },
    });
    const clashing: Codec = { ...anthropicMessagesCodec, describeOpenAPI: options => clash(anthropicMessagesCodec.describeOpenAPI!(options)) };
    const { engine } = gatewayWith([openAIChatCodec, clashing], ['chat', 'messages']);
    expect(() => buildOpenAPIDocument({ engine })).toThrow('Two descriptions declare the OpenAPI component schemas.OpenAIError differently; rename one.');
  });

  it('is served under the gateway\'s mount point with that server URL, built on the first request only', async () => {
    const describeSpy = jest.fn(openAIChatCodec.describeOpenAPI!);
    const gateway = gatewayWith([{ ...openAIChatCodec, describeOpenAPI: describeSpy }], ['chat']);
    const app = express();
    app.use('/llm', gateway);
    const host = await listenOnLoopback(app);
    hosts.push(host);
    const first = await request(host.url).get('/llm/openapi.json');
    const second = await request(host.url).get('/llm/openapi.json');
    expect([first.status, first.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect((first.body as Document).servers).toEqual([{ url: '/llm' }]);
    expect(Object.keys((first.body as Document).paths)).toContain('/v1/chat/completions');
    expect(second.text).toBe(first.text);
    expect(describeSpy).toHaveBeenCalledTimes(1);
    expect(describeSpy).toHaveBeenCalledWith({ modelIds: ['team-default'] });
    expect((await request(host.url).get('/openapi.json')).status).toBe(404);
  });
});
