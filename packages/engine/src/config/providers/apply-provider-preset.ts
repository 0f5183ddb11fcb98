import { closestName } from '@signalbox/core';
import { z } from 'zod';
import { PROVIDER_PRESETS } from './provider-presets';

/** The fields of an upstream's config that a provider preset gives defaults for. */
type PresetableFields = {
  provider?: string | undefined;
  protocol?: string | undefined;
  baseURL?: string | undefined;
  apiKeyEnv?: string | undefined;
  credentials?: readonly unknown[] | undefined;
  headers: Record<string, string>;
  quirks?: string[] | undefined;
};

/** An upstream with its provider's defaults filled in: its protocol and base URL are known. */
export type WithPreset<Upstream> = Omit<Upstream, 'protocol' | 'baseURL' | 'quirks'> & {
  protocol: string;
  baseURL: string;
  /** Departures from the protocol its codec makes for it (its own, else its provider's). */
  quirks: string[];
};

/**
 * A zod transform: the upstream's own keys over its `provider`'s preset (headers merged, its own
 * winning; the preset's key variable only when it names neither `apiKeyEnv` nor `credentials`).
 * An unknown provider is an issue naming the likely one and all known; so is an upstream with
 * neither a provider nor its own `protocol` and `baseURL`.
 */
export function applyProviderPreset<Upstream extends PresetableFields>(upstream: Upstream, context: z.RefinementCtx): WithPreset<Upstream> {
  const preset = upstream.provider === undefined ? undefined : PROVIDER_PRESETS[upstream.provider];
  if (upstream.provider !== undefined && preset === undefined) {
    context.addIssue({ code: 'custom', path: ['provider'], message: describeUnknownProvider(upstream.provider) });
    return z.NEVER;
  }
  const protocol = upstream.protocol ?? preset?.protocol;
  const baseURL = upstream.baseURL ?? preset?.baseURL;
  for (const [field, value] of [['protocol', protocol], ['baseURL', baseURL]] as const) {
    if (value === undefined) context.addIssue({ code: 'custom', path: [field], message: `required unless a provider gives it (known providers: ${knownProviders()})` });
  }
  if (protocol === undefined || baseURL === undefined) return z.NEVER;
  const apiKeyEnv = upstream.apiKeyEnv ?? (upstream.credentials === undefined ? preset?.apiKeyEnv : undefined);
  return {
    ...upstream,
    protocol,
    baseURL,
    ...(apiKeyEnv !== undefined && { apiKeyEnv }),
    headers: { ...preset?.headers, ...upstream.headers },
    quirks: upstream.quirks ?? [...(preset?.quirks ?? [])],
  };
}

function describeUnknownProvider(name: string): string {
  const near = closestName(name, Object.keys(PROVIDER_PRESETS));
  return `unknown provider '${name}'${near === undefined ? '' : ` (did you mean ${near}?)`}; known: ${knownProviders()}`;
}

function knownProviders(): string {
  return Object.keys(PROVIDER_PRESETS).join(', ');
}
