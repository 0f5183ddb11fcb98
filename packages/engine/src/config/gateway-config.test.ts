import type { UpstreamClient, UpstreamClientOptions } from '@signalbox/upstream';
import { createMemoryAccountStore } from '@signalbox/accounts';
import { createEngine } from '../create-engine';
import { allCodecs } from '../testing';
import type { GatewayConfigInput } from './gateway-config';
import { ConfigError } from './config-error';
import { parseGatewayConfig } from './parse-gateway-config';

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

/** The problems `parseGatewayConfig` finds in `input`, or none. */
function problemsOf(input: unknown, options: Parameters<typeof parseGatewayConfig>[1] = {}): string[] {
  try {
    parseGatewayConfig(input, options);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('unknown keys', () => {
  it('are named with the key they likely stand for, at every depth, including the key limits from accounts', () => {
    const config = {
      ...configWith({}),
      upstreams: { main: { protocol: 'openai-responses', baseUrl: 'http://127.0.0.1:9/v1', baseURL: 'http://127.0.0.1:9/v1' } },
      limits: { default: { concurency: 4 } },
      route: [],
    };
    expect(problemsOf(config)).toEqual([
      'upstreams.main: unknown field baseUrl (did you mean baseURL?)',
      'limits.default: unknown field concurency (did you mean concurrency?)',
      '(root): unknown field route (did you mean routes?)',
    ]);
  });

  it('are named with the one known key that ends in the same word: the version header is set by apiVersion, whatever the protocol', () => {
    const config = { ...configWith({}), upstreams: { main: { protocol: 'anthropic-messages', baseURL: 'http://127.0.0.1:9', anthropicVersion: '2023-06-01' } } };
    expect(problemsOf(config)).toEqual(['upstreams.main: unknown field anthropicVersion (did you mean apiVersion?)']);
  });

  it('are named alone when nothing known is near, and a top-level one may stand for a section of the host', () => {
    expect(problemsOf({ ...configWith({}), retries: 3, tracng: {} }, { hostSections: ['storage', 'tracing'] })).toEqual([
      '(root): unknown fields retries, tracng (did you mean tracing?)',
    ]);
  });
});

describe('protocol and interface names', () => {
  it('are checked against the codecs when they are given, before any engine is made', () => {
    const config = configWith({ protocol: 'openai-responsez' });
    config.routes[0]!.interfaces = ['responses', 'mesages'];
    expect(problemsOf(config)).toEqual([]);
    expect(problemsOf(config, { codecs: allCodecs })).toEqual([
      "upstreams.main.protocol: no codec speaks 'openai-responsez' (known: openai-responses, anthropic-messages, openai-chat)",
      "routes.0.interfaces.1: unknown interface 'mesages' (known: responses, messages, chat)",
    ]);
  });
});

describe('upstream credentials', () => {
  const pool = [
    { name: 'team-a', apiKeyEnv: 'KEY_A', weight: 2 },
    { name: 'team-b', apiKeyEnv: 'KEY_B', headers: { 'OpenAI-Project': 'proj_b' }, connections: 8 },
  ];

  it('keep each credential with a weight of 1 unless given, and a circuit breaker of 5 failures in 30 s, open for 30 s', () => {
    const upstream = parseGatewayConfig(configWith({ credentials: pool })).upstreams.main!;
    expect(upstream.credentials).toEqual([
      { name: 'team-a', apiKeyEnv: 'KEY_A', weight: 2, headers: {} },
      { name: 'team-b', apiKeyEnv: 'KEY_B', weight: 1, headers: { 'OpenAI-Project': 'proj_b' }, connections: 8 },
    ]);
    expect(upstream.circuitBreaker).toEqual({ failures: 5, windowMs: 30_000, openMs: 30_000 });
  });

  it('are refused beside apiKeyEnv, twice under one name, with a name that is not safe to show, or with a key in place of a variable', () => {
    expect(problemsOf(configWith({ apiKeyEnv: 'KEY', credentials: pool }))).toEqual([
      'upstreams.main.apiKeyEnv: set apiKeyEnv or credentials, not both (a single key is a pool of one)',
    ]);
    expect(problemsOf(configWith({ credentials: [pool[0]!, { name: 'team-a', apiKeyEnv: 'KEY_C' }] }))).toEqual([
      "upstreams.main.credentials.1.name: duplicate credential name 'team-a'",
    ]);
    expect(problemsOf(configWith({ credentials: [{ name: 'team a/1', apiKeyEnv: 'KEY_A' }] }))).toEqual([
      'upstreams.main.credentials.0.name: must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
    ]);
    expect(problemsOf(configWith({ credentials: [{ name: 'team-a', apiKeyEnv: 'sk-live-1234' }] }))).toEqual([
      'upstreams.main.credentials.0.apiKeyEnv: must be an environment variable name',
    ]);
    const misspelt = configWith({});
    expect(problemsOf({ ...misspelt, upstreams: { main: { ...misspelt.upstreams.main, credentials: [{ name: 'team-a', apiKeyEnv: 'KEY_A', wieght: 2 }] } } })).toEqual([
      'upstreams.main.credentials.0: unknown field wieght (did you mean weight?)',
    ]);
  });

  it('open one client per credential, each with its key in its headers and its own connection cap', async () => {
    const opened: { credential: string; options: UpstreamClientOptions }[] = [];
    const engine = createEngine({
      config: parseGatewayConfig(configWith({ credentials: pool, connections: 64 })),
      codecs: allCodecs,
      store: createMemoryAccountStore(),
      environment: { KEY_A: 'sk-a-secret', KEY_B: 'sk-b-secret' },
      upstreamClient: (_name, options, credential): UpstreamClient => {
        opened.push({ credential, options });
        return { baseURL: options.baseURL, send: () => Promise.reject(new Error('not called')), close: async () => undefined };
      },
    });
    expect(opened.map(({ credential, options }) => [credential, options.headers?.authorization, options.headers?.['openai-project'], options.connections])).toEqual([
      ['team-a', 'Bearer sk-a-secret', undefined, 64],
      ['team-b', 'Bearer sk-b-secret', 'proj_b', 8],
    ]);
    expect(engine.secrets.scrub('keys sk-a-secret and sk-b-secret')).not.toMatch(/sk-[ab]-secret/);
    await engine.close();
  });
});

describe('forwardClientHeaders', () => {
  const withPatterns = (patterns: string[]) => ({ ...configWith({}), forwardClientHeaders: patterns });

  it("refuses the codecs' own key, version and account headers once the codecs are known", () => {
    const config = withPatterns(['x-api-key', 'anthropic-*', 'provider-version', 'openai-organization', 'x-codex-*']);
    expect(problemsOf(config)).toEqual([]);
    expect(problemsOf(config, { codecs: allCodecs })).toEqual([
      "forwardClientHeaders.0: 'x-api-key' matches 'x-api-key', which is never forwarded (credentials and transport headers stay with the gateway)",
      "forwardClientHeaders.1: 'anthropic-*' matches 'anthropic-version', which is never forwarded (credentials and transport headers stay with the gateway)",
      "forwardClientHeaders.2: 'provider-version' matches 'provider-version', which is never forwarded (credentials and transport headers stay with the gateway)",
      "forwardClientHeaders.3: 'openai-organization' matches 'openai-organization', which is never forwarded (credentials and transport headers stay with the gateway)",
    ]);
  });

  it('leaves a header to the gateway whose codecs do not use it: without Messages, anthropic-version is any client header', () => {
    const openAIOnly = allCodecs.filter(codec => codec.descriptor.credential.kind === 'bearer');
    expect(problemsOf(withPatterns(['anthropic-version']), { codecs: openAIOnly })).toEqual([]);
    expect(problemsOf(withPatterns(['authorization', 'api-key']), { codecs: openAIOnly })).toHaveLength(2);
  });
});
