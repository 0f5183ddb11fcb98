import { closestName } from '@signalbox/core';
import type { z } from 'zod';

/**
 * A zod error map for strict config objects: an unknown key is named with the known one it most
 * likely stands for (`unknown field baseUrl (did you mean baseURL?)`), or else the one known key
 * that ends in the same word (`anthropicVersion (did you mean apiVersion?)`); other issues keep zod's
 * message. `rootKeys` are further top-level names a host reads itself (the example server's
 * `storage`), suggested for a mistyped top-level key. Pass it to `safeParse(input, { error })`.
 */
export function describeUnknownKeys(rootKeys: readonly string[] = []): (issue: z.core.$ZodRawIssue) => string | undefined {
  return issue => {
    if (issue.code !== 'unrecognized_keys') return undefined;
    const known = [...keysOf(issue.inst), ...((issue.path ?? []).length === 0 ? rootKeys : [])];
    const named = issue.keys.map(key => {
      const near = closestName(key, known) ?? sameLastWord(key, known);
      return near === undefined ? key : `${key} (did you mean ${near}?)`;
    });
    return `unknown field${named.length > 1 ? 's' : ''} ${named.join(', ')}`;
  };
}

/** The keys an object schema knows. */
function keysOf(schema: z.core.$ZodRawIssue['inst']): string[] {
  const definition = schema?._zod.def;
  return definition !== undefined && 'type' in definition && definition.type === 'object'
    ? Object.keys((definition as z.core.$ZodObjectDef).shape)
    : [];
}

/** The known key that ends in the same word as `key`, when exactly one does (`anthropicVersion`: `apiVersion`). */
function sameLastWord(key: string, known: readonly string[]): string | undefined {
  const word = lastWord(key);
  const matches = known.filter(name => lastWord(name) === word);
  return matches.length === 1 ? matches[0] : undefined;
}

/** The last word of a camelCase name, in lower case: `version` of `apiVersion`, `url` of `baseURL`. */
function lastWord(name: string): string {
  return (/[A-Z]?[a-z0-9]+$|[A-Z]+$/.exec(name)?.[0] ?? name).toLowerCase();
}
