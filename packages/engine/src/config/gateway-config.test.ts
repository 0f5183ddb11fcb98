import type { UpstreamClient, UpstreamClientOptions } from '@signalbox/upstream';
import { createMemoryAccountStore } from '@signalbox/accounts';
import { createEngine } from '../create-engine';
import { allCodecs } from '../testing';
import type { GatewayConfigInput } from './gateway-config';
import { ConfigError, parseGatewayConfig } from './parse-gateway-config';

function configWith(upstream: Partial<GatewayConfigInput['upstreams'][string]>): GatewayConfigInput {
  return {
    upstreams: { main: { protocol: 'openai-responses', baseURL: 'http://127.0.0.1:9/v1', ...upstream } },
    routes: [{ model: 'm', interfaces: ['responses'], targets: [{ upstream: 'main', model: 'm' }] }],
  };
}

describe('upstream connection settings', () => {
  it('default to 1,024 connections per upstream and a 5 s wait once they are all busy', () => {
    const { connections, queueTimeoutMs } = parseGatewayConfig(configWith({})).upstreams.main!;
    expect({ connections, queueTimeoutMs }).toEqual({ connections: 1_024, queueTimeoutMs: 5_000 });
  });

  it('keep the values an upstream sets, 0 meaning refuse at once when every connection is busy', () => {
    const { connections, queueTimeoutMs } = parseGatewayConfig(configWith({ connections: 16, queueTimeoutMs: 0 })).upstreams.main!;
    expect({ connections, queueTimeoutMs }).toEqual({ connections: 16, queueTimeoutMs: 0 });
  });

  it('refuse a connection count that is not a positive whole number, naming the path', () => {
    for (const connections of [0, -1, 1.5]) {
      const failure = (() => {
        try {
          parseGatewayConfig(configWith({ connections }));
        } catch (error) {
          return error;
        }
      })();
      expect(failure).toBeInstanceOf(ConfigError);
      expect((failure as ConfigError).problems[0]).toMatch(/^upstreams\.main\.connections: /);
    }
  });

  it('reach the upstream client the engine opens', async () => {
    const opened: UpstreamClientOptions[] = [];
    const engine = createEngine({
      config: parseGatewayConfig(configWith({ connections: 64, queueTimeoutMs: 250 })),
      codecs: allCodecs,
      store: createMemoryAccountStore(),
      upstreamClient: (_name, options): UpstreamClient => {
        opened.push(options);
        return { baseURL: options.baseURL, send: () => Promise.reject(new Error('not called')), close: async () => undefined };
      },
    });
    expect(opened).toHaveLength(1);
    expect({ connections: opened[0]!.connections, queueTimeoutMs: opened[0]!.queueTimeoutMs }).toEqual({ connections: 64, queueTimeoutMs: 250 });
    await engine.close();
  });
});
