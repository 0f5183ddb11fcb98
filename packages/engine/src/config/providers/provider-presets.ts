import { anthropicPresets } from './anthropic-presets';
import { cloudPresets } from './cloud-presets';
import { googlePresets } from './google-presets';
import { hostedCompatiblePresets } from './hosted-compatible-presets';
import { localServerPresets } from './local-server-presets';
import { openAIPresets } from './openai-presets';
import type { ProviderPreset } from './provider-preset';

/** Every provider an upstream may name, by name: the clouds' presets also set their upstream `kind`. */
export const PROVIDER_PRESETS: Readonly<Record<string, ProviderPreset>> = {
  ...openAIPresets,
  ...anthropicPresets,
  ...cloudPresets,
  ...googlePresets,
  ...hostedCompatiblePresets,
  ...localServerPresets,
};
