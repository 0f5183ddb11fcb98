import type { Account } from '../use-accounts';
import type { Key } from '../use-keys';

/** A key as a person knows it: its name, with its visible prefix to tell keys of the same name apart. */
export function keyLabel(key: Key): string {
  return `${key.name} (${key.prefix}…)`;
}

/**
 * The usage filter's choice of key (`keyId` in the form), listed by name in alphabetical order: grouped by account for
 * the admin console, which sees every account's keys; an account's own keys otherwise. A chosen key
 * the list does not have (one no longer listed) stays chosen, shown by what the page knows of it.
 */
export function KeyPicker(props: {
  keys: Key[];
  accounts: Account[];
  chosen: string;
  /** How to show a chosen key that is not in the list (its prefix, from a usage row). */
  unlisted: string;
  onChoose: (id: string) => void;
  admin: boolean;
}) {
  const { accounts, chosen } = props;
  const keys = [...props.keys].sort((left, right) => left.name.localeCompare(right.name) || left.prefix.localeCompare(right.prefix));
  const listed = keys.some(key => key.id === chosen);
  const option = (key: Key) => (
    <option key={key.id} value={key.id}>
      {keyLabel(key)}
    </option>
  );
  const byAccount = accounts
    .map(account => ({ account, keys: keys.filter(key => key.accountId === account.id) }))
    .filter(group => group.keys.length > 0);
  const ungrouped = keys.filter(key => !accounts.some(account => account.id === key.accountId));
  return (
    <label>
      Key{' '}
      <select
        name="keyId"
        value={chosen}
        onChange={event => props.onChoose((event.currentTarget as HTMLSelectElement).value)}
      >
        <option value="">any</option>
        {chosen && !listed && <option value={chosen}>{props.unlisted}</option>}
        {props.admin ? (
          <>
            {byAccount.map(group => (
              <optgroup key={group.account.id} label={group.account.name}>
                {group.keys.map(option)}
              </optgroup>
            ))}
            {ungrouped.map(option)}
          </>
        ) : (
          keys.map(option)
        )}
      </select>
    </label>
  );
}
