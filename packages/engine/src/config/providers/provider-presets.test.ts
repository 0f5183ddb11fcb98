import { geminiCodec } from '@signalbox/codec-google-gemini';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { ConfigError } from '../config-error';
import { parseGatewayConfig } from '../parse-gateway-config';

const route = (upstream: string) => ({ model: 'm', interfaces: ['chat'], targets: [{ upstream, model: 'upstream-model' }] });

function problemsOf(input: unknown, codecs = [openAIChatCodec]): string[] {
  try {
    parseGatewayConfig(input, { codecs });
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
