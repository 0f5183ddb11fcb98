import type { ProviderPreset } from './provider-preset';

/**
 * Google's Gemini API: generateContent under `/v1beta`, the key in `x-goog-api-key` (the codec's
 * scheme). Gemini on Vertex AI is the `vertex` kind on a `google-gemini` upstream instead.
 */
export const googlePresets: Readonly<Record<string, ProviderPreset>> = {
  gemini: {
    protocol: 'google-gemini',
    baseURL: 'https://generativelanguage.googleapis.com/v1beta',
    apiKeyEnv: 'GEMINI_API_KEY',
    documentation: 'https://ai.google.dev/api',
  },
};
