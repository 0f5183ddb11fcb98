import type { ProviderPreset } from './provider-preset';

/** Anthropic itself: the Messages API, key in `x-api-key`, `anthropic-version` pinned by the codec. */
export const anthropicPresets: Readonly<Record<string, ProviderPreset>> = {
  anthropic: {
    protocol: 'anthropic-messages',
    baseURL: 'https://api.anthropic.com',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    documentation: 'https://docs.anthropic.com/en/api/overview',
  },
};
