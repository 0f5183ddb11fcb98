import { useEffect, useState } from 'preact/hooks';
import { api, toQuery, type Session } from '../api-client';
import { AccountPicker } from '../components/account-picker';
import { BudgetForm } from '../components/budget-form';
import { formatMicros, formatMoney, formatTime, formatFailure } from '../format';
import { useAccounts } from '../use-accounts';
import { ErrorNotice } from '../components/error-notice';

type BalanceEvent = { id: string; time: string; kind: string; delta: number; balanceAfter: number };

/** The balance, what requests in flight hold, the budgets, the history of top-ups; the admin console may top up. */
export function BalancePage({ session }: { session: Session }) {
  const { accounts, chosen, setChosen, reload } = useAccounts(session);
  const [events, setEvents] = useState<BalanceEvent[]>([]);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  const account = accounts.find(candidate => candidate.id === chosen);
  useEffect(() => {
    if (!chosen) return;
    // The history of an account no longer chosen (its answer can come after the new one's) is dropped.
    let current = true;
    api<{ data: BalanceEvent[] }>(
      'GET',
      `/accounts/${encodeURIComponent(chosen)}/balance-events${toQuery({ limit: '100' })}`,
    ).then(
      answer => current && setEvents(answer.data),
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [chosen, generation]);
  const topUp = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const amount = Number((form.elements.namedItem('amount') as HTMLInputElement).value);
    setError('');
    try {
      await api('POST', `/accounts/${encodeURIComponent(chosen)}/balance`, { delta: amount });
      form.reset();
      reload();
      setGeneration(value => value + 1);
    } catch (failure) {
      setError(formatFailure(failure));
    }
  };
  return (
    <>
      <AccountPicker
        accounts={accounts}
        chosen={chosen}
        onChoose={setChosen}
        admin={session.identity.kind === 'admin'}
      />
      <ErrorNotice error={error} />
      {account && (
        <dl class="balance">
          <div>
            <dt>Balance</dt>
            <dd class="balance-amount">{formatMicros(account.balanceMicros)}</dd>
          </div>
          <div>
            <dt>Held by requests in flight</dt>
            <dd>{formatMicros(account.reservedMicros)}</dd>
          </div>
          <div>
            <dt>Available</dt>
            <dd>{formatMicros(account.balanceMicros - account.reservedMicros)}</dd>
          </div>
        </dl>
      )}
      {session.identity.kind === 'admin' && account && (
        <form class="top-up" onSubmit={event => void topUp(event)}>
          <label for="amount">Top up (currency units)</label>
          <input id="amount" name="amount" type="number" min="0.000001" step="0.000001" required />
          <button type="submit">Top up</button>
        </form>
      )}
      {account && (
        <BudgetForm
          accountId={account.id}
          admin={session.identity.kind === 'admin'}
          readOnly={session.identity.kind === 'account' && session.identity.role === 'viewer'}
        />
      )}
      <h2>History</h2>
      <table class="events">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Kind</th>
            <th scope="col">Change</th>
            <th scope="col">Balance after</th>
          </tr>
        </thead>
        <tbody>
          {events.map(item => (
            <tr key={item.id}>
              <td>{formatTime(item.time)}</td>
              <td>{item.kind}</td>
              <td class="number">{formatMoney(item.delta)}</td>
              <td class="number">{formatMoney(item.balanceAfter)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {events.length === 0 && <p class="muted">No top-ups yet.</p>}
    </>
  );
}
