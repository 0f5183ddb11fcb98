import { closestName } from '@signalbox/core';
import { z } from 'zod';
import type { CloudPlace, CloudPlaceKey, ProviderPreset } from './provider-preset';
import { PROVIDER_PRESETS } from './provider-presets';

/** The fields of an upstream's config that a provider preset gives defaults for. */
type PresetableFields = CloudPlace & {
  provider?: string | undefined;
  protocol?: string | undefined;
  kind?: string | undefined;
  baseURL?: string | undefined;
  apiKeyEnv?: string | undefined;
  auth?: Record<string, unknown> | undefined;
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

const PLACE_KEYS: readonly CloudPlaceKey[] = ['resource', 'region', 'project'];

/**
 * A zod transform: the upstream's own keys over its `provider`'s preset (headers merged, its own
 * winning; the preset's key variable and auth only when it names no key or auth of its own; a
 * cloud's base URL made from its `region`, `resource` or `project`). An unknown provider is an
 * issue naming the likely one and all known; so is an upstream with neither a provider nor its own
 * `protocol` and `baseURL`, and a cloud upstream missing the name its base URL is made from.
 */
export function applyProviderPreset<Upstream extends PresetableFields>(upstream: Upstream, context: z.RefinementCtx): WithPreset<Upstream> {
  const preset = upstream.provider === undefined ? undefined : PROVIDER_PRESETS[upstream.provider];
  if (upstream.provider !== undefined && preset === undefined) {
    context.addIssue({ code: 'custom', path: ['provider'], message: describeUnknownProvider(upstream.provider) });
    return z.NEVER;
  }
  const protocol = upstream.protocol ?? preset?.protocol;
  const baseURL = upstream.baseURL ?? presetBaseURL(upstream, preset, context);
  // A preset always gives a protocol, and a base URL unless a place key is missing (an issue of its own).
  for (const [field, value] of [['protocol', protocol], ['baseURL', baseURL]] as const) {
    if (value === undefined && preset === undefined) context.addIssue({ code: 'custom', path: [field], message: `required unless a provider gives it (known providers: ${knownProviders()})` });
  }
  if (!checkPlaceKeysRead(upstream, preset, context) || protocol === undefined || baseURL === undefined) return z.NEVER;
  const keyed = upstream.apiKeyEnv !== undefined || upstream.credentials !== undefined;
  const apiKeyEnv = upstream.apiKeyEnv ?? (keyed || upstream.auth !== undefined ? undefined : preset?.apiKeyEnv);
  const auth = keyed || preset?.auth === undefined ? upstream.auth : preset.auth(upstream.auth, upstream);
  const kind = upstream.kind ?? preset?.kind;
  return {
    ...upstream,
    protocol,
    baseURL,
    ...(kind !== undefined && { kind }),
    ...(apiKeyEnv !== undefined && { apiKeyEnv }),
    ...(auth !== undefined && { auth }),
    headers: { ...preset?.headers, ...upstream.headers },
    quirks: upstream.quirks ?? [...(preset?.quirks ?? [])],
  };
}

/** The preset's base URL: as written, or made from the upstream's place keys; a missing one is an issue naming it. */
function presetBaseURL(upstream: PresetableFields, preset: ProviderPreset | undefined, context: z.RefinementCtx): string | undefined {
  if (preset === undefined) return undefined;
  if (typeof preset.baseURL === 'string') return preset.baseURL;
  const missing = preset.baseURL.place.filter(key => upstream[key] === undefined);
  for (const key of missing) {
    context.addIssue({ code: 'custom', path: [key], message: `the ${String(upstream.provider)} provider makes its base URL from \`${key}\`: set it, or set \`baseURL\`` });
  }
  if (missing.length > 0) return undefined;
  const place: Required<CloudPlace> = { resource: '', region: '', project: '' };
  for (const key of preset.baseURL.place) place[key] = upstream[key]!;
  return preset.baseURL.make(place);
}

/** A place key set on an upstream whose provider makes no URL from it is an issue: it would be silently ignored. */
function checkPlaceKeysRead(upstream: PresetableFields, preset: ProviderPreset | undefined, context: z.RefinementCtx): boolean {
  const read = preset === undefined || typeof preset.baseURL === 'string' ? [] : preset.baseURL.place;
  const unread = PLACE_KEYS.filter(key => upstream[key] !== undefined && !read.includes(key));
  for (const key of unread) context.addIssue({ code: 'custom', path: [key], message: `only read by the providers ${providersReading(key)}` });
  return unread.length === 0;
}

function providersReading(key: CloudPlaceKey): string {
  return Object.entries(PROVIDER_PRESETS)
    .filter(([, preset]) => typeof preset.baseURL !== 'string' && preset.baseURL.place.includes(key))
    .map(([name]) => name)
    .join(', ');
}

function describeUnknownProvider(name: string): string {
  const near = closestName(name, Object.keys(PROVIDER_PRESETS));
  return `unknown provider '${name}'${near === undefined ? '' : ` (did you mean ${near}?)`}; known: ${knownProviders()}`;
}

function knownProviders(): string {
  return Object.keys(PROVIDER_PRESETS).join(', ');
}
