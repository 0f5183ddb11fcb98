import { useState } from 'preact/hooks';
import { api, type Session } from '../api-client';
import { AccountPicker } from '../components/account-picker';
import { CredentialTable } from '../components/credential-table';
import { NewSecret } from '../components/new-secret';
import { formatFailure, formatKeyLimits } from '../format';
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
        <NewSecret id="secret-title" title={`Key “${created.key.name}” created`} secret={created.secret} copyLabel="Copy the new key's secret" onDone={() => setCreated(undefined)}>
          Copy the secret now: it is shown only this once.
        </NewSecret>
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
      <CredentialTable
        records={keys}
        kind="keys"
        prefixTitle="Prefix"
        statusOf={statusOf}
        after={[
          { title: 'Group', cell: key => key.group ?? '—' },
          { title: 'Models', cell: key => key.allowedModels?.join(', ') ?? 'all' },
        ]}
        actions={readOnly ? undefined : key => <KeyActions record={key} operatorOnly={operatorOnly(key)} patch={patch} />}
        empty="No keys yet."
      />
    </>
  );
}

/** Disable or enable a key (never one the operator disabled, for an account's session), and expire it now. */
function KeyActions({ record, operatorOnly, patch }: { record: Key; operatorOnly: boolean; patch: (key: Key, body: object) => void }) {
  return (
    <>
      {record.status === 'active' ? (
        <button type="button" class="secondary" onClick={() => patch(record, { status: 'disabled' })} aria-label={`Disable ${record.name}`}>
          Disable
        </button>
      ) : operatorOnly ? (
        <span class="muted">Disabled by the operator</span>
      ) : (
        <button type="button" class="secondary" onClick={() => patch(record, { status: 'active' })} aria-label={`Enable ${record.name}`}>
          Enable
        </button>
      )}
      {statusOf(record) !== 'expired' && (
        <button type="button" class="secondary" onClick={() => patch(record, { expiresAt: new Date().toISOString() })} aria-label={`Expire ${record.name} now`}>
          Expire now
        </button>
      )}
    </>
  );
}
