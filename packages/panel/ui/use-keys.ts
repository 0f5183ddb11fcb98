import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, toQuery } from './api-client';
import { formatFailure } from './format';

export type Key = {
  id: string;
  accountId: string;
  name: string;
  prefix: string;
  status: string;
  /** Who disabled it (`null` while active): an account's session may enable only a key its account disabled. */
  disabledBy: 'operator' | 'account' | null;
  expiresAt: string | null;
  group: string | null;
  allowedModels: string[] | null;
  limits: Record<string, number> | null;
  createdAt: string;
};

/**
 * The keys this session may see, of one account when `accountId` is given (the admin console sees
 * every account's without one, an account only its own); `reload` fetches them again.
 */
export function useKeys(accountId?: string) {
  const [keys, setKeys] = useState<Key[]>([]);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let stopped = false;
    api<{ data: Key[] }>('GET', `/keys${toQuery({ accountId })}`).then(
      answer => {
        if (stopped) return;
        setKeys(answer.data);
        setError('');
      },
      (failure: unknown) => {
        if (!stopped) setError(formatFailure(failure));
      },
    );
    return () => {
      stopped = true;
    };
  }, [accountId, generation]);
  return { keys, error, reload: () => setGeneration(value => value + 1) };
}

/**
 * The keys the session may see, and by id, fetched again once when a row names a key not among
 * them (one created since the page was opened).
 */
export function useKeysOfRows(rows: ReadonlyArray<{ keyId?: string | null }>) {
  const { keys, reload } = useKeys();
  const byId = useMemo(() => new Map(keys.map(key => [key.id, key])), [keys]);
  const asked = useRef(new Set<string>());
  useEffect(() => {
    const unknown = rows.flatMap(row =>
      row.keyId && !byId.has(row.keyId) && !asked.current.has(row.keyId) ? [row.keyId] : [],
    );
    if (unknown.length === 0) return;
    for (const id of unknown) asked.current.add(id);
    reload();
  }, [rows, byId]);
  return { keys, byId };
}
