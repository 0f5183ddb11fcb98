import type { ProviderPreset } from './provider-preset';

/** OpenAI itself: the Responses API, key in `Authorization: Bearer`. */
export const openAIPresets: Readonly<Record<string, ProviderPreset>> = {
  openai: {
    protocol: 'openai-responses',
    baseURL: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    documentation: 'https://platform.openai.com/docs/api-reference/authentication',
  },
};
