import { useEffect, useState } from 'preact/hooks';
import { api, toQuery } from '../api-client';
import { formatMicros, formatFailure, formatTime } from '../format';
import { ErrorNotice } from './error-notice';

type Budget = { accountId: string; keyId: string | null; period: 'day' | 'month'; limit: number; limitMicros: number; spentMicros: number; heldMicros: number; renewsAt: string };
type Key = { id: string; name: string };

/**
 * An account's budgets (its own and its keys') with the current period's spend, and a form that
 * sets, changes or removes one: the admin console any, an account owner's session its keys' only,
 * a viewer's none (`readOnly`: the table alone).
 */
export function BudgetForm({ accountId, admin, readOnly }: { accountId: string; admin: boolean; readOnly: boolean }) {
  const [budgets, setBudgets] = useState<Budget[]>([]);
  const [keys, setKeys] = useState<Key[]>([]);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    // An answer for an account no longer chosen (it can arrive after the new one's) is dropped.
    let current = true;
    const query = toQuery({ accountId });
    Promise.all([api<{ data: Budget[] }>('GET', `/budgets${query}`), api<{ data: Key[] }>('GET', `/keys${query}`)]).then(
      ([found, listed]) => {
        if (!current) return;
        setBudgets(found.data);
        setKeys(listed.data);
      },
      (failure: unknown) => current && setError(formatFailure(failure)),
    );
    return () => {
      current = false;
    };
  }, [accountId, generation]);
  const nameOf = (keyId: string | null) => (keyId === null ? 'Account (every key)' : (keys.find(key => key.id === keyId)?.name ?? keyId));
  const save = async (owner: string, period: string, limit: number | null) => {
    setError('');
    try {
      await api('POST', '/budgets', { ...(owner === '' ? { accountId } : { keyId: owner }), period, limit });
      setGeneration(value => value + 1);
    } catch (failure) {
      setError(formatFailure(failure));
    }
  };
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value;
    void save(field('budget-owner'), field('budget-period'), Number(field('budget-limit')));
  };
  return (
    <section aria-labelledby="budgets-heading">
      <h2 id="budgets-heading">Budgets</h2>
      <ErrorNotice error={error} />
      <table class="budgets">
        <thead>
          <tr>
            <th scope="col">For</th>
            <th scope="col">Period (UTC)</th>
            <th scope="col">Spent</th>
            <th scope="col">Limit</th>
            <th scope="col">Renews</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {budgets.map(budget => (
            <tr key={`${budget.keyId ?? ''}-${budget.period}`} data-budget={`${budget.keyId ?? 'account'}-${budget.period}`}>
              <td>{nameOf(budget.keyId)}</td>
              <td>{budget.period}</td>
              <td class="number">{formatMicros(budget.spentMicros)}</td>
              <td class="number">{formatMicros(budget.limitMicros)}</td>
              <td>{formatTime(budget.renewsAt)}</td>
              <td>
                {!readOnly && (admin || budget.keyId !== null) && (
                  <button type="button" class="secondary" onClick={() => void save(budget.keyId ?? '', budget.period, null)}>
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!readOnly && (
        <form class="budget-form" onSubmit={submit}>
          <label for="budget-owner">For</label>
          <select id="budget-owner" name="budget-owner">
            {admin && <option value="">Account (every key)</option>}
            {keys.map(key => (
              <option key={key.id} value={key.id}>
                {key.name}
              </option>
            ))}
          </select>
          <label for="budget-period">Period</label>
          <select id="budget-period" name="budget-period">
            <option value="day">day</option>
            <option value="month">month</option>
          </select>
          <label for="budget-limit">Limit (currency units)</label>
          <input id="budget-limit" name="budget-limit" type="number" min="0" step="0.000001" required />
          <button type="submit">Set budget</button>
        </form>
      )}
    </section>
  );
}
