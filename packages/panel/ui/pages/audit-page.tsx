import { useEffect, useState } from 'preact/hooks';
import { api, base, toQuery } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { formatFailure, formatTime } from '../format';

type AuditEntry = {
  id: string;
  time: string;
  actor: string;
  accountId: string | null;
  entityType: string;
  entityId: string;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
};

/** The audit API's filters the form sets, by the API's names. */
type Filters = Partial<Record<'actor' | 'entityType' | 'action' | 'from' | 'to', string>>;

/** The members a change touched, `name: before → after`, or every member of what it created. */
function describeChange(entry: AuditEntry): string {
  const show = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));
  const after = entry.after ?? {};
  if (!entry.before) {
    // What a create set: the columns shown elsewhere in the row (ids, times) and empty members left out.
    const set = Object.entries(after).filter(([name, value]) => value !== null && !['id', 'accountId', 'createdAt'].includes(name));
    return set.map(([name, value]) => `${name}: ${show(value)}`).join(', ');
  }
  const before = entry.before;
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = names.filter(name => JSON.stringify(before[name]) !== JSON.stringify(after[name]));
  return changed.map(name => `${name}: ${show(before[name])} → ${show(after[name])}`).join(', ') || 'no change';
}

/** A `datetime-local` value as the ISO 8601 time the API takes (empty stays empty). */
function toIso(local: string): string {
  return local ? new Date(local).toISOString() : '';
}

/**
 * Who changed what, when and from where: the audit log newest first, filtered by actor, entity,
 * action and time, with the next page on demand and the same entries as a CSV file. The admin sees
 * every entry; an account's owner its account's.
 */
export function AuditPage() {
  const [filters, setFilters] = useState<Filters>({});
  const [entries, setEntries] = useState<AuditEntry[]>([]);
  const [nextCursor, setNextCursor] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [loading, setLoading] = useState(true);
  const load = (cursor?: string) => {
    setLoading(true);
    api<{ data: AuditEntry[]; nextCursor: string | null }>('GET', `/audit${toQuery({ ...filters, cursor })}`)
      .then(page => {
        setEntries(current => (cursor ? [...current, ...page.data] : page.data));
        setNextCursor(page.nextCursor);
        setError('');
      })
      .catch((failure: unknown) => setError(formatFailure(failure)))
      .finally(() => setLoading(false));
  };
  useEffect(() => load(), [filters]);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
    setFilters({ actor: field('actor'), entityType: field('entityType'), action: field('action'), from: toIso(field('from')), to: toIso(field('to')) });
  };
  return (
    <>
      <ErrorNotice error={error} />
      <form class="filters" onSubmit={submit} aria-label="Filter the audit log">
        <label>
          Actor <input name="actor" placeholder="console:alice" />
        </label>
        <label>
          Entity
          <select name="entityType">
            {['', 'account', 'key', 'console-token', 'upstream-credential'].map(value => (
              <option key={value} value={value}>
                {value || 'any'}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action <input name="action" placeholder="update" />
        </label>
        <label>
          From <input name="from" type="datetime-local" />
        </label>
        <label>
          To <input name="to" type="datetime-local" />
        </label>
        <button type="submit">Apply</button>
        <a class="button secondary" href={`${base}/api/audit.csv${toQuery(filters)}`} download>
          Download CSV
        </a>
      </form>
      <table class="audit">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Actor</th>
            <th scope="col">Entity</th>
            <th scope="col">Action</th>
            <th scope="col">Change</th>
            <th scope="col">From</th>
          </tr>
        </thead>
        <tbody>
          {entries.map(entry => (
            <tr key={entry.id} data-entity={entry.entityId}>
              <td>{formatTime(entry.time)}</td>
              <td>{entry.actor}</td>
              <td>
                {entry.entityType} <code>{entry.entityId}</code>
              </td>
              <td>{entry.action}</td>
              <td class="change">{describeChange(entry)}</td>
              <td class="muted" title={entry.userAgent ?? ''}>
                {entry.ip ?? '—'}
                {entry.requestId && <div>{entry.requestId}</div>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {loading && entries.length === 0 && <p class="loading">Loading…</p>}
      {!loading && entries.length === 0 && <p class="muted">No changes match these filters.</p>}
      {nextCursor && (
        <button type="button" class="secondary" disabled={loading} onClick={() => load(nextCursor)}>
          Older changes
        </button>
      )}
    </>
  );
}
