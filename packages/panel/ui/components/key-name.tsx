import type { Key } from '../use-keys';

/**
 * A usage row's key by its name (the prefix on hover); a key the session no longer lists by the
 * prefix the row kept; a dash for a request refused before any key was known.
 */
export function KeyName(props: {
  keyId: string | null | undefined;
  keyPrefix: string | null | undefined;
  keys: ReadonlyMap<string, Key>;
}) {
  const key = props.keyId ? props.keys.get(props.keyId) : undefined;
  if (key) return <span title={`${key.prefix}…`}>{key.name}</span>;
  return <code>{props.keyPrefix ?? '—'}</code>;
}
