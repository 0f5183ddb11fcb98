import type { ComponentChildren } from 'preact';
import { formatTime } from '../format';

/** A column of a credential table beyond the common ones: its heading and what each row shows in it. */
export type CredentialColumn<T> = { title: string; cell(record: T): ComponentChildren };

/** What API keys and console tokens share: a name, a visible prefix, a status and an expiry. */
type Credential = { id: string; name: string; prefix: string; status: string; expiresAt: string | null };

type CredentialTableProps<T extends Credential> = {
  records: readonly T[];
  /** The table's class (`keys`, `members`). */
  kind: string;
  /** The heading of the prefix column. */
  prefixTitle: string;
  /** Columns between the prefix and the status, and after the expiry. */
  before?: ReadonlyArray<CredentialColumn<T>>;
  after?: ReadonlyArray<CredentialColumn<T>>;
  /** The status as a person reads it; default the record's own. */
  statusOf?: (record: T) => string;
  /** The row's buttons; `undefined` shows the row as read only. */
  actions: ((record: T) => ComponentChildren) | undefined;
  empty: string;
};

/** The list of an account's keys or members: name, prefix, status, expiry, the page's own columns and the row's actions. */
export function CredentialTable<T extends Credential>(props: CredentialTableProps<T>) {
  const { records, before = [], after = [], actions } = props;
  const statusOf = props.statusOf ?? ((record: T) => record.status);
  return (
    <>
      <table class={props.kind}>
        <thead>
          <tr>
            {['Name', props.prefixTitle, ...before.map(column => column.title), 'Status', 'Expires', ...after.map(column => column.title), 'Actions'].map(title => (
              <th scope="col" key={title}>
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {records.map(record => (
            <tr key={record.id}>
              <td>{record.name}</td>
              <td>
                <code>{record.prefix}…</code>
              </td>
              {before.map(column => (
                <td key={column.title}>{column.cell(record)}</td>
              ))}
              <td>
                <span class={`status status-${statusOf(record)}`}>{statusOf(record)}</span>
              </td>
              <td>{formatTime(record.expiresAt)}</td>
              {after.map(column => (
                <td key={column.title}>{column.cell(record)}</td>
              ))}
              <td>{actions ? <div class="actions">{actions(record)}</div> : <span class="muted">Read only</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {records.length === 0 && <p class="muted">{props.empty}</p>}
    </>
  );
}
