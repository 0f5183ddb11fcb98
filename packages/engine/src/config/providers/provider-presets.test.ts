import { geminiCodec } from '@signalbox/codec-google-gemini';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import type { Codec } from '@signalbox/core';
import { ConfigError } from '../config-error';
import { parseGatewayConfig } from '../parse-gateway-config';

const route = (upstream: string) => ({ model: 'm', interfaces: ['chat'], targets: [{ upstream, model: 'upstream-model' }] });

/** The config's problems, its protocols checked against `codecs` (`null`: not checked). */
function problemsOf(input: unknown, codecs: Codec[] | null = [openAIChatCodec]): string[] {
  try {
    parseGatewayConfig(input, codecs === null ? {} : { codecs });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('upstreams named by provider', () => {
  it("fills the protocol, base URL, key variable and quirks from the provider's preset", () => {
    const config = parseGatewayConfig({ upstreams: { mistral: { provider: 'mistral' } }, routes: [route('mistral')] });
    expect(config.upstreams.mistral).toMatchObject({
      provider: 'mistral',
      protocol: 'openai-chat',
      baseURL: 'https://api.mistral.ai/v1',
      apiKeyEnv: 'MISTRAL_API_KEY',
      quirks: ['omit-stream-options', 'max-tokens'],
    });
  });

  it("lets the upstream's own keys override each default, and merges headers with its own winning", () => {
    const config = parseGatewayConfig({
      upstreams: {
        ollama: { provider: 'ollama', baseURL: 'http://10.0.0.5:11434/v1', apiKeyEnv: 'OLLAMA_KEY', quirks: [], headers: { 'X-Team': 'a' } },
      },
      routes: [route('ollama')],
    });
    expect(config.upstreams.ollama).toMatchObject({ baseURL: 'http://10.0.0.5:11434/v1', apiKeyEnv: 'OLLAMA_KEY', quirks: [], headers: { 'X-Team': 'a' } });
  });

  it("takes no key variable from the preset for an upstream with its own credentials", () => {
    const config = parseGatewayConfig({
      upstreams: { groq: { provider: 'groq', credentials: [{ name: 'a', apiKeyEnv: 'GROQ_KEY_A' }] } },
      routes: [route('groq')],
    });
    expect(config.upstreams.groq?.apiKeyEnv).toBeUndefined();
    expect(config.upstreams.groq?.credentials?.map(credential => credential.apiKeyEnv)).toEqual(['GROQ_KEY_A']);
  });

  it("fills Google's Gemini API: the gemini protocol under /v1beta, the key in GEMINI_API_KEY", () => {
    const config = parseGatewayConfig({ upstreams: { google: { provider: 'gemini' } }, routes: [route('google')] }, { codecs: [openAIChatCodec, geminiCodec] });
    expect(config.upstreams.google).toMatchObject({ protocol: 'google-gemini', baseURL: 'https://generativelanguage.googleapis.com/v1beta', apiKeyEnv: 'GEMINI_API_KEY' });
  });

  it('leaves a local server without a key variable', () => {
    const config = parseGatewayConfig({ upstreams: { local: { provider: 'lmstudio' } }, routes: [route('local')] });
    expect(config.upstreams.local).toMatchObject({ protocol: 'openai-chat', baseURL: 'http://localhost:1234/v1', quirks: [] });
    expect(config.upstreams.local?.apiKeyEnv).toBeUndefined();
  });

  it('names the likely provider and every known one for a mistyped name', () => {
    const [problem] = problemsOf({ upstreams: { router: { provider: 'openruter' } }, routes: [route('router')] });
    expect(problem).toMatch(/^upstreams\.router\.provider: unknown provider 'openruter' \(did you mean openrouter\?\); known: openai, anthropic, .*ollama, vllm, lmstudio$/);
  });

  it('requires a protocol and a base URL from an upstream that names no provider', () => {
    expect(problemsOf({ upstreams: { bare: {} }, routes: [route('bare')] })).toEqual([
      expect.stringMatching(/^upstreams\.bare\.protocol: required unless a provider gives it/),
      expect.stringMatching(/^upstreams\.bare\.baseURL: required unless a provider gives it/),
    ]);
  });

  it("refuses a quirk the upstream's codec does not know, naming the likely one", () => {
    expect(problemsOf({ upstreams: { x: { provider: 'vllm', quirks: ['max-token'] } }, routes: [route('x')] })).toEqual([
      "upstreams.x.quirks.0: 'openai-chat' has no quirk 'max-token' (did you mean max-tokens?); known: omit-stream-options, max-tokens",
    ]);
  });
});

/** The one upstream `cloud` of a config, with its preset applied. */
function upstreamOf(upstream: Record<string, unknown>) {
  return parseGatewayConfig({ upstreams: { cloud: upstream }, routes: [route('cloud')] }).upstreams.cloud;
}

/** The problems of a config whose one upstream `cloud` is this. */
const cloudProblemsOf = (upstream: Record<string, unknown>) => problemsOf({ upstreams: { cloud: upstream }, routes: [route('cloud')] }, null);

describe('cloud providers by name', () => {
  it("makes Azure OpenAI's v1 base URL from the resource, with its kind and the api-key variable", () => {
    expect(upstreamOf({ provider: 'azure-openai', resource: 'my-resource' })).toMatchObject({
      kind: 'azure-openai',
      protocol: 'openai-responses',
      baseURL: 'https://my-resource.openai.azure.com/openai/v1',
      apiKeyEnv: 'AZURE_OPENAI_API_KEY',
    });
  });

  it('takes no key variable for an Azure upstream that signs in with Entra ID', () => {
    const upstream = upstreamOf({ provider: 'azure-openai', resource: 'r1', protocol: 'openai-chat', auth: { type: 'entra', source: 'default' } });
    expect(upstream).toMatchObject({ protocol: 'openai-chat', auth: { type: 'entra', source: 'default' } });
    expect(upstream?.apiKeyEnv).toBeUndefined();
  });

  it("makes Bedrock's regional endpoint from the region, and signs with SigV4 for that region", () => {
    expect(upstreamOf({ provider: 'bedrock', region: 'eu-west-3' })).toMatchObject({
      kind: 'bedrock',
      protocol: 'anthropic-messages',
      baseURL: 'https://bedrock-runtime.eu-west-3.amazonaws.com',
      auth: { type: 'aws', region: 'eu-west-3' },
    });
  });

  it("keeps a Bedrock upstream's own auth settings, the region added, and its API key without any", () => {
    expect(upstreamOf({ provider: 'bedrock', region: 'us-east-1', auth: { type: 'aws', profile: 'gateway' } })?.auth).toEqual({ type: 'aws', profile: 'gateway', region: 'us-east-1' });
    expect(upstreamOf({ provider: 'bedrock', region: 'us-east-1', auth: { type: 'aws', region: 'us-west-2' } })?.auth).toEqual({ type: 'aws', region: 'us-west-2' });
    const keyed = upstreamOf({ provider: 'bedrock', region: 'us-east-1', apiKeyEnv: 'AWS_BEARER_TOKEN_BEDROCK' });
    expect(keyed).toMatchObject({ apiKeyEnv: 'AWS_BEARER_TOKEN_BEDROCK', baseURL: 'https://bedrock-runtime.us-east-1.amazonaws.com' });
    expect(keyed?.auth).toBeUndefined();
  });

  it('signs for the region given beside an overriding base URL (a VPC endpoint)', () => {
    const upstream = upstreamOf({ provider: 'bedrock', region: 'us-east-1', baseURL: 'https://vpce-1.bedrock-runtime.us-east-1.vpce.amazonaws.com' });
    expect(upstream).toMatchObject({ baseURL: 'https://vpce-1.bedrock-runtime.us-east-1.vpce.amazonaws.com', auth: { type: 'aws', region: 'us-east-1' } });
  });

  it("makes Vertex AI's location base URL from the project and region, on the global host for global", () => {
    expect(upstreamOf({ provider: 'vertex', project: 'my-project', region: 'us-east5' })).toMatchObject({
      kind: 'vertex',
      protocol: 'anthropic-messages',
      baseURL: 'https://us-east5-aiplatform.googleapis.com/v1/projects/my-project/locations/us-east5',
    });
    expect(upstreamOf({ provider: 'vertex', project: 'my-project', region: 'global' })?.baseURL).toBe('https://aiplatform.googleapis.com/v1/projects/my-project/locations/global');
    expect(upstreamOf({ provider: 'vertex', project: 'my-project', region: 'global' })?.auth).toBeUndefined();
  });

  it('needs no place key when the upstream gives its own base URL', () => {
    expect(upstreamOf({ provider: 'vertex', baseURL: 'http://127.0.0.1:9/v1/projects/p/locations/global' })?.baseURL).toBe('http://127.0.0.1:9/v1/projects/p/locations/global');
  });

  it('names each missing key a cloud base URL is made from', () => {
    expect(cloudProblemsOf({ provider: 'bedrock' })).toEqual(['upstreams.cloud.region: the bedrock provider makes its base URL from `region`: set it, or set `baseURL`']);
    expect(cloudProblemsOf({ provider: 'vertex' })).toEqual([
      'upstreams.cloud.project: the vertex provider makes its base URL from `project`: set it, or set `baseURL`',
      'upstreams.cloud.region: the vertex provider makes its base URL from `region`: set it, or set `baseURL`',
    ]);
    expect(cloudProblemsOf({ provider: 'azure-openai' })).toEqual(['upstreams.cloud.resource: the azure-openai provider makes its base URL from `resource`: set it, or set `baseURL`']);
  });

  it.each(['us-east-1/../evil', '..', 'evil.com', 'US-EAST-1', 'us-east-1:443', '-us'])('refuses %p as a place name', name => {
    expect(cloudProblemsOf({ provider: 'bedrock', region: name })).toEqual([
      'upstreams.cloud.region: must be a name of lowercase letters, digits and hyphens, such as us-east-1',
    ]);
  });

  it('refuses a place key its provider makes no URL from', () => {
    expect(cloudProblemsOf({ provider: 'openai', region: 'us-east-1' })).toEqual(['upstreams.cloud.region: only read by the providers bedrock, vertex']);
    expect(cloudProblemsOf({ provider: 'bedrock', region: 'us-east-1', project: 'p' })).toEqual(['upstreams.cloud.project: only read by the providers vertex']);
  });
});
