import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, base, toQuery, type Session } from '../api-client';
import { KeyName } from '../components/key-name';
import { KeyPicker } from '../components/key-picker';
import { CacheByModel } from '../components/cache-by-model';
import { UsageCharts, type Summary } from '../components/usage-charts';
import { formatClock, formatCount, formatFailure, formatMoney, formatTime, statusClassOf } from '../format';
import { ErrorNotice } from '../components/error-notice';
import { useAccounts } from '../use-accounts';
import { useKeysOfRows } from '../use-keys';

type UsageRow = {
  time: string;
  requestId: string;
  model: string | null;
  protocol: string;
  stream?: boolean;
  status: number;
  outcome: string;
  cost: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs?: number;
  keyId?: string | null;
  keyPrefix?: string | null;
  accountId?: string | null;
};

/** The usage API's filters, kept in the page's URL query so a view can be bookmarked or shared. */
const FILTERS = ['from', 'to', 'model', 'keyId', 'status', 'outcome', 'protocol'] as const;
/** Besides the filters, the URL keeps the page (`cursor`), its size (`limit`) and the charts' `bucket`. */
type Filters = Partial<Record<(typeof FILTERS)[number] | 'cursor' | 'limit' | 'bucket', string>>;

const POLL_MS = 3000;
const NO_ROWS: UsageRow[] = [];
const DEFAULT_PAGE_SIZE = '50';

function readFilters(): Filters {
  const query = new URLSearchParams(location.search);
  return Object.fromEntries(
    [...FILTERS, 'cursor', 'limit', 'bucket'].flatMap(name =>
      query.get(name) ? [[name, query.get(name)!]] : [],
    ),
  );
}

/** Times in the URL are ISO 8601; the form's `datetime-local` fields show them in local time. */
function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? ''
    : new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/** A select's `<option>`s, one per value; the empty value reads "any" (no filter). */
function options(values: readonly string[]) {
  return values.map(value => (
    <option key={value} value={value}>
      {value || 'any'}
    </option>
  ));
}

/**
 * The ledger as a table with the API's filters (the key chosen by name), cursor pages (newest
 * first), a CSV export of the same filters, and charts and the prompt cache by model from the
 * summary API. The first page polls, so new requests appear without a reload.
 */
export function UsagePage({ session }: { session: Session }) {
  const [filters, setFilters] = useState<Filters>(readFilters);
  // Undefined until the first page arrives: "loading", not "no requests".
  const [rows, setRows] = useState<UsageRow[] | undefined>();
  const [nextCursor, setNextCursor] = useState<string | undefined>();
  const [previous, setPrevious] = useState<string[]>([]);
  const [summaries, setSummaries] = useState<{ byModel?: Summary; byStatus?: Summary }>({});
  const [error, setError] = useState('');
  const [updatedAt, setUpdatedAt] = useState<Date | undefined>();
  const query = useMemo(() => Object.fromEntries(FILTERS.map(name => [name, filters[name]])), [filters]);
  const bucket = filters.bucket ?? 'minute';
  const { accounts } = useAccounts(session);
  const { keys, byId: keysById } = useKeysOfRows(rows ?? NO_ROWS);
  // Kept in state: the page re-renders on every refresh, which must not undo a choice not yet applied.
  const [chosenKey, setChosenKey] = useState(filters.keyId ?? '');

  useEffect(() => {
    history.replaceState(
      null,
      '',
      `${base}/usage${toQuery({ ...query, cursor: filters.cursor, limit: filters.limit, bucket: filters.bucket })}`,
    );
    let stopped = false;
    const load = async () => {
      try {
        const page = await api<{ data: UsageRow[]; nextCursor?: string | null }>(
          'GET',
          `/usage${toQuery({ ...query, cursor: filters.cursor, limit: filters.limit ?? DEFAULT_PAGE_SIZE })}`,
        );
        const [byModel, byStatus] = await Promise.all(
          ['model', 'status'].map(groupBy =>
            api<Summary>('GET', `/usage/summary${toQuery({ ...query, bucket, groupBy })}`),
          ),
        );
        if (stopped) return;
        setRows(page.data);
        setNextCursor(page.nextCursor ?? undefined);
        setSummaries({ byModel, byStatus });
        setUpdatedAt(new Date());
        setError('');
      } catch (failure) {
        if (!stopped) setError(formatFailure(failure));
      }
    };
    void load();
    // Only the newest page moves; an older page stays as it was read.
    const timer = filters.cursor ? undefined : setInterval(() => void load(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [query, filters.cursor, filters.limit, bucket]);

  const apply = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = (name: string) =>
      (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value.trim();
    const time = (name: string) => (field(name) ? new Date(field(name)).toISOString() : undefined);
    setPrevious([]);
    setFilters({
      from: time('from'),
      to: time('to'),
      model: field('model'),
      keyId: field('keyId'),
      status: field('status'),
      outcome: field('outcome'),
      protocol: field('protocol'),
      bucket: field('bucket'),
      limit: filters.limit,
    });
  };
  const csv = `${base}/api/usage.csv${toQuery(query)}`;
  return (
    <>
      <form class="filters" onSubmit={apply} aria-label="Usage filters">
        <label>
          From <input name="from" type="datetime-local" value={toLocalInput(filters.from)} />
        </label>
        <label>
          To <input name="to" type="datetime-local" value={toLocalInput(filters.to)} />
        </label>
        <label>
          Model <input name="model" value={filters.model ?? ''} />
        </label>
        <KeyPicker
          keys={keys}
          accounts={accounts}
          chosen={chosenKey}
          unlisted={rows?.find(row => row.keyId === chosenKey)?.keyPrefix ?? 'a key not listed'}
          onChoose={setChosenKey}
          admin={session.identity.kind === 'admin'}
        />
        <label>
          Status{' '}
          <input name="status" inputMode="numeric" pattern="[0-9]{3}" value={filters.status ?? ''} size={4} />
        </label>
        <label>
          Outcome{' '}
          <select name="outcome" value={filters.outcome ?? ''}>
            {options(['', 'completed', 'incomplete', 'failed', 'error', 'client-aborted', 'interrupted'])}
          </select>
        </label>
        <label>
          Protocol{' '}
          <select name="protocol" value={filters.protocol ?? ''}>
            {options(['', 'openai-responses', 'anthropic-messages', 'openai-chat'])}
          </select>
        </label>
        <label>
          Chart buckets{' '}
          <select name="bucket" value={bucket}>
            {options(['minute', 'hour', 'day'])}
          </select>
        </label>
        <button type="submit">Apply</button>
        <a class="button secondary" href={csv} download>
          Export CSV
        </a>
      </form>
      <ErrorNotice error={error} />
      <UsageCharts byModel={summaries.byModel} byStatus={summaries.byStatus} />
      <CacheByModel byModel={summaries.byModel} />
      <p class="muted" aria-live="polite">
        {filters.cursor
          ? 'An older page (not refreshed).'
          : `Refreshed every ${POLL_MS / 1000} s${updatedAt ? `, last at ${formatClock(updatedAt)}` : ''}.`}
      </p>
      <table class="usage">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Model</th>
            <th scope="col">Status</th>
            <th scope="col">Cost</th>
            <th scope="col">Protocol</th>
            <th scope="col">Tokens in / out</th>
            <th scope="col">Latency</th>
            <th scope="col">Key</th>
          </tr>
        </thead>
        <tbody>
          {rows?.map(row => (
            <tr key={row.requestId} data-request-id={row.requestId}>
              <td>{formatTime(row.time)}</td>
              <td>
                <code>{row.model ?? '—'}</code>
              </td>
              <td>
                <span class={`status ${statusClassOf(row.status)}`}>
                  {row.status}
                </span>{' '}
                <span class="muted">{row.outcome}</span>
              </td>
              <td class="number">{formatMoney(row.cost)}</td>
              <td>
                {row.protocol}
                {row.stream ? ' (stream)' : ''}
              </td>
              <td class="number">
                {formatCount(row.inputTokens)} / {formatCount(row.outputTokens)}
              </td>
              <td class="number">{row.latencyMs === undefined ? '—' : `${formatCount(row.latencyMs)} ms`}</td>
              <td>
                <KeyName keyId={row.keyId} keyPrefix={row.keyPrefix} keys={keysById} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows === undefined ? (
        <p class="loading" role="status">
          Loading requests…
        </p>
      ) : (
        rows.length === 0 && <p class="muted">No requests match these filters.</p>
      )}
      <nav class="pages" aria-label="Usage pages">
        <button
          type="button"
          class="secondary"
          disabled={!filters.cursor}
          onClick={() => {
            const stack = previous.slice(0, -1);
            setFilters({ ...filters, cursor: previous.at(-1) || undefined });
            setPrevious(stack);
          }}
        >
          Newer
        </button>
        <button
          type="button"
          class="secondary"
          disabled={!nextCursor}
          onClick={() => {
            setPrevious([...previous, filters.cursor ?? '']);
            setFilters({ ...filters, cursor: nextCursor });
          }}
        >
          Older
        </button>
      </nav>
      {session.identity.kind === 'admin' && (
        <p class="hint">The admin console sees every account's requests.</p>
      )}
    </>
  );
}
