import { useState } from 'preact/hooks';
import { api, type Session } from '../api-client';
import { AccountPicker } from '../components/account-picker';
import { CopyButton } from '../components/copy-button';
import { formatFailure, formatKeyLimits, formatTime } from '../format';
import { useAccounts } from '../use-accounts';
import { useKeys, type Key } from '../use-keys';
import { ErrorNotice } from '../components/error-notice';

/** A key's status as a person reads it: an active key past its expiry is expired. */
function statusOf(key: Key): string {
  return key.status === 'active' && key.expiresAt && Date.parse(key.expiresAt) <= Date.now()
    ? 'expired'
    : key.status;
}

/**
 * Create keys (the secret is shown once), list them, disable, enable or expire them. An account's
 * session is offered only what its console token may set: no group, limits up to its ceiling, and
 * no Enable for a key the operator disabled. An account's viewer only reads the list.
 */
export function KeysPage({ session }: { session: Session }) {
  const { accounts, chosen, setChosen } = useAccounts(session);
  const ownKeys = session.identity.kind === 'account';
  const readOnly = session.identity.kind === 'account' && session.identity.role === 'viewer';
  const ceiling = session.me.keyLimitCeiling;
  const operatorOnly = (key: Key) => ownKeys && key.disabledBy === 'operator';
  const { keys, error: loadError, reload } = useKeys(chosen);
  const [created, setCreated] = useState<{ secret: string; key: Key } | undefined>();
  const [error, setError] = useState('');
  const run = async (action: () => Promise<unknown>) => {
    setError('');
    try {
      await action();
      reload();
    } catch (failure) {
      setError(formatFailure(failure));
    }
  };
  const create = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
    const whole = (name: string) => (field(name) ? Number(field(name)) : undefined);
    const limits = {
      requests: whole('requests'),
      tokens: whole('tokens'),
      concurrency: whole('concurrency'),
    };
    const body = {
      accountId: chosen,
      name: field('name'),
      ...(field('expiresAt') && { expiresAt: new Date(field('expiresAt')).toISOString() }),
      ...(!ownKeys && field('group') && { group: field('group') }),
      ...(field('allowedModels') && {
        allowedModels: field('allowedModels')
          .split(/[\s,]+/)
          .filter(Boolean),
      }),
      ...(Object.values(limits).some(value => value !== undefined) && {
        limits: JSON.parse(JSON.stringify(limits)) as object,
      }),
    };
    void run(async () => {
      setCreated(await api<{ secret: string; key: Key }>('POST', '/keys', body));
      form.reset();
    });
  };
  const patch = (key: Key, body: object) =>
    void run(() => api('PATCH', `/keys/${encodeURIComponent(key.id)}`, body));
  return (
    <>
      <AccountPicker
        accounts={accounts}
        chosen={chosen}
        onChoose={setChosen}
        admin={session.identity.kind === 'admin'}
      />
      <ErrorNotice error={error || loadError} />
      {created && (
        <section class="secret" aria-labelledby="secret-title">
          <h2 id="secret-title">Key “{created.key.name}” created</h2>
          <p>Copy the secret now: it is shown only this once.</p>
          <p>
            <code class="key-secret">{created.secret}</code>{' '}
            <CopyButton text={created.secret} label="Copy the new key's secret" />
          </p>
          <button type="button" class="secondary" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </section>
      )}
      {!readOnly && (
        <section class="create" aria-labelledby="create-title">
          <h2 id="create-title">Create a key</h2>
          {ceiling && (
            <p class="muted ceiling">
              This account's keys may have at most: {formatKeyLimits(ceiling)}. Only the operator may give a key a group or more.
            </p>
          )}
          <form onSubmit={create} class="grid">
            <label for="key-name">Name</label>
            <input id="key-name" name="name" required maxLength={200} />
            <label for="key-expires">Expires (optional)</label>
            <input id="key-expires" name="expiresAt" type="datetime-local" />
            {!ownKeys && (
              <>
                <label for="key-group">Group (optional)</label>
                <input id="key-group" name="group" maxLength={100} />
              </>
            )}
            <label for="key-models">Allowed models (optional, comma-separated)</label>
            <input id="key-models" name="allowedModels" />
            <label for="key-requests">Requests per minute (optional)</label>
            <input id="key-requests" name="requests" type="number" min="1" step="1" max={ceiling?.requests} />
            <label for="key-tokens">Tokens per minute (optional)</label>
            <input id="key-tokens" name="tokens" type="number" min="1" step="1" max={ceiling?.tokens} />
            <label for="key-concurrency">Requests in flight (optional)</label>
            <input id="key-concurrency" name="concurrency" type="number" min="1" step="1" max={ceiling?.concurrency} />
            <span />
            <button type="submit">Create key</button>
          </form>
        </section>
      )}
      <h2>Existing keys</h2>
      <table class="keys">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Status</th>
            <th scope="col">Expires</th>
            <th scope="col">Group</th>
            <th scope="col">Models</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {keys.map(key => (
            <tr key={key.id} data-key-id={key.id}>
              <td>{key.name}</td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>
                <span class={`status status-${statusOf(key)}`}>{statusOf(key)}</span>
              </td>
              <td>{formatTime(key.expiresAt)}</td>
              <td>{key.group ?? '—'}</td>
              <td>{key.allowedModels?.join(', ') ?? 'all'}</td>
              <td>
                {readOnly ? (
                  <span class="muted">Read only</span>
                ) : (
                  <div class="actions">
                    {key.status === 'active' ? (
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => patch(key, { status: 'disabled' })}
                        aria-label={`Disable ${key.name}`}
                      >
                        Disable
                      </button>
                    ) : operatorOnly(key) ? (
                      <span class="muted">Disabled by the operator</span>
                    ) : (
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => patch(key, { status: 'active' })}
                        aria-label={`Enable ${key.name}`}
                      >
                        Enable
                      </button>
                    )}
                    {statusOf(key) !== 'expired' && (
                      <button
                        type="button"
                        class="secondary"
                        onClick={() => patch(key, { expiresAt: new Date().toISOString() })}
                        aria-label={`Expire ${key.name} now`}
                      >
                        Expire now
                      </button>
                    )}
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {keys.length === 0 && <p class="muted">No keys yet.</p>}
    </>
  );
}
