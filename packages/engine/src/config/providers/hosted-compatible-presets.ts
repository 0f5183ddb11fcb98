import type { ProviderPreset } from './provider-preset';

/**
 * Hosted services that speak OpenAI's Chat Completions with a key in `Authorization: Bearer`.
 * OpenRouter's attribution headers (`HTTP-Referer`, `X-OpenRouter-Title`) name the operator's own
 * app, so they are the upstream's `headers` to set, never a preset's.
 */
export const hostedCompatiblePresets: Readonly<Record<string, ProviderPreset>> = {
  openrouter: {
    protocol: 'openai-chat',
    baseURL: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    documentation: 'https://openrouter.ai/docs/app-attribution',
  },
  groq: {
    protocol: 'openai-chat',
    baseURL: 'https://api.groq.com/openai/v1',
    apiKeyEnv: 'GROQ_API_KEY',
    documentation: 'https://console.groq.com/docs/openai',
  },
  deepseek: {
    protocol: 'openai-chat',
    baseURL: 'https://api.deepseek.com',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    documentation: 'https://api-docs.deepseek.com/',
  },
  mistral: {
    protocol: 'openai-chat',
    baseURL: 'https://api.mistral.ai/v1',
    apiKeyEnv: 'MISTRAL_API_KEY',
    // Its request schema forbids fields it does not know: `stream_options` and `max_completion_tokens` among them.
    quirks: ['omit-stream-options', 'max-tokens'],
    documentation: 'https://docs.mistral.ai/api/',
  },
  xai: {
    protocol: 'openai-chat',
    baseURL: 'https://api.x.ai/v1',
    apiKeyEnv: 'XAI_API_KEY',
    documentation: 'https://docs.x.ai/docs/api-reference',
  },
  together: {
    protocol: 'openai-chat',
    baseURL: 'https://api.together.xyz/v1',
    apiKeyEnv: 'TOGETHER_API_KEY',
    documentation: 'https://docs.together.ai/docs/openai-api-compatibility',
  },
  fireworks: {
    protocol: 'openai-chat',
    baseURL: 'https://api.fireworks.ai/inference/v1',
    apiKeyEnv: 'FIREWORKS_API_KEY',
    documentation: 'https://docs.fireworks.ai/tools-sdks/openai-compatibility',
  },
};
