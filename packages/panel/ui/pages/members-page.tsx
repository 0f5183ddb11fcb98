import { useEffect, useState } from 'preact/hooks';
import { api, toQuery, type Session } from '../api-client';
import { AccountPicker } from '../components/account-picker';
import { CredentialTable } from '../components/credential-table';
import { ErrorNotice } from '../components/error-notice';
import { NewSecret } from '../components/new-secret';
import { formatFailure } from '../format';
import { useAccounts } from '../use-accounts';

type Member = { id: string; accountId: string; name: string; prefix: string; status: 'active' | 'disabled'; role: 'owner' | 'viewer'; expiresAt: string | null };

/**
 * An account's members: its console tokens, each a login to the panel and the admin API with a
 * role (an owner manages the account, a viewer only reads it). The admin console and an account's
 * owner create them (the token is shown once), change their role and disable them.
 */
export function MembersPage({ session }: { session: Session }) {
  const { accounts, chosen, setChosen } = useAccounts(session);
  const [members, setMembers] = useState<Member[]>([]);
  const [created, setCreated] = useState<{ secret: string; token: Member } | undefined>();
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!chosen) return;
    api<{ data: Member[] }>('GET', `/console-tokens${toQuery({ accountId: chosen })}`)
      .then(answer => setMembers(answer.data))
      .catch((failure: unknown) => setError(formatFailure(failure)));
  }, [chosen, generation]);
  const run = (action: () => Promise<unknown>) => {
    setError('');
    action()
      .then(() => setGeneration(value => value + 1))
      .catch((failure: unknown) => setError(formatFailure(failure)));
  };
  const create = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
    run(async () => {
      setCreated(await api<{ secret: string; token: Member }>('POST', '/console-tokens', { accountId: chosen, name: field('name'), role: field('role') }));
      form.reset();
    });
  };
  const change = (member: Member, body: Partial<Pick<Member, 'status' | 'role'>>) => run(() => api('PATCH', `/console-tokens/${encodeURIComponent(member.id)}`, body));
  return (
    <>
      <AccountPicker accounts={accounts} chosen={chosen} onChoose={setChosen} admin={session.identity.kind === 'admin'} />
      <ErrorNotice error={error} />
      {created && (
        <NewSecret id="member-secret-title" title={`Console token “${created.token.name}” created`} secret={created.secret} copyLabel="Copy the new console token" onDone={() => setCreated(undefined)}>
          Copy it now: it is shown only this once. It logs in to this panel as a {created.token.role}.
        </NewSecret>
      )}
      <section class="create" aria-labelledby="member-create-title">
        <h2 id="member-create-title">Add a member</h2>
        <form onSubmit={create} class="grid">
          <label for="member-name">Name</label>
          <input id="member-name" name="name" required maxLength={200} />
          <label for="member-role">Role</label>
          <select id="member-role" name="role">
            <option value="owner">owner: manages the account</option>
            <option value="viewer">viewer: only reads it</option>
          </select>
          <button type="submit">Create console token</button>
        </form>
      </section>
      <CredentialTable
        records={members}
        kind="members"
        prefixTitle="Token"
        before={[{ title: 'Role', cell: member => member.role }]}
        actions={member => (
          <>
            <button type="button" class="secondary" aria-label={`Make ${member.name} ${member.role === 'owner' ? 'a viewer' : 'an owner'}`} onClick={() => change(member, { role: member.role === 'owner' ? 'viewer' : 'owner' })}>
              {member.role === 'owner' ? 'Make viewer' : 'Make owner'}
            </button>
            <button type="button" class="secondary" aria-label={`${member.status === 'active' ? 'Disable' : 'Enable'} ${member.name}`} onClick={() => change(member, { status: member.status === 'active' ? 'disabled' : 'active' })}>
              {member.status === 'active' ? 'Disable' : 'Enable'}
            </button>
          </>
        )}
        empty="No members yet."
      />
    </>
  );
}
