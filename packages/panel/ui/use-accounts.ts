import { useEffect, useState } from 'preact/hooks';
import { api, type Session } from './api-client';

export type Account = {
  id: string;
  name: string;
  balance: number;
  balanceMicros: number;
  reservedMicros: number;
  subscription: string;
  group: string | null;
};

/**
 * The accounts this session may see (all for the admin console, its own for an account) and the
 * one chosen on the page; `reload` fetches them again (after a top-up, say).
 */
export function useAccounts(session: Session) {
  const [accounts, setAccounts] = useState<Account[]>([]);
  const [chosen, setChosen] = useState(session.identity.kind === 'account' ? session.identity.accountId : '');
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    void api<{ data: Account[] }>('GET', '/accounts').then(answer => {
      setAccounts(answer.data);
      setChosen(current => current || answer.data[0]?.id || '');
    });
  }, [generation]);
  return { accounts, chosen, setChosen, reload: () => setGeneration(value => value + 1) };
}
