import diff from 'microdiff';
import type { ConfigChange } from './config-version-store';
import { maskConfigSecrets } from './config-secrets';

/**
 * What changed from `before` to `after` (two config documents), one entry per added, removed or
 * changed value by its dotted path (`routes.0.pricing.inputPerMillion`), with secrets masked. A
 * secret that changed shows as changed, never its value.
 */
export function diffConfigDocuments(before: Record<string, unknown>, after: Record<string, unknown>): ConfigChange[] {
  return diff(before, after).map(difference => {
    const path = difference.path;
    const masked = (value: unknown) => maskConfigSecrets(value, path);
    const where = path.join('.');
    if (difference.type === 'CREATE') return { path: where, kind: 'added', after: masked(difference.value) };
    if (difference.type === 'REMOVE') return { path: where, kind: 'removed', before: masked(difference.oldValue) };
    return { path: where, kind: 'changed', before: masked(difference.oldValue), after: masked(difference.value) };
  });
}
