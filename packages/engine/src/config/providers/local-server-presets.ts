import type { ProviderPreset } from './provider-preset';

/**
 * Model servers run on the operator's own machines, at their default ports on this host; they
 * speak OpenAI's Chat Completions and need no key unless started with one (then set `apiKeyEnv`,
 * and `baseURL` for another host).
 */
export const localServerPresets: Readonly<Record<string, ProviderPreset>> = {
  ollama: {
    protocol: 'openai-chat',
    baseURL: 'http://localhost:11434/v1',
    // Its OpenAI-compatible endpoint reads the output limit from `max_tokens` only.
    quirks: ['max-tokens'],
    documentation: 'https://docs.ollama.com/api/openai-compatibility',
  },
  vllm: {
    protocol: 'openai-chat',
    baseURL: 'http://localhost:8000/v1',
    documentation: 'https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html',
  },
  lmstudio: {
    protocol: 'openai-chat',
    baseURL: 'http://localhost:1234/v1',
    documentation: 'https://lmstudio.ai/docs/api/openai-api',
  },
};
