import type { Account } from '../use-accounts';

/** The admin console's choice of account; an account session sees only its own name. */
export function AccountPicker(props: {
  accounts: Account[];
  chosen: string;
  onChoose: (id: string) => void;
  admin: boolean;
}) {
  if (!props.admin) return null;
  return (
    <p>
      <label for="account">Account</label>{' '}
      <select
        id="account"
        value={props.chosen}
        onChange={event => props.onChoose((event.currentTarget as HTMLSelectElement).value)}
      >
        {props.accounts.map(account => (
          <option key={account.id} value={account.id}>
            {account.name} ({account.id})
          </option>
        ))}
      </select>
    </p>
  );
}
