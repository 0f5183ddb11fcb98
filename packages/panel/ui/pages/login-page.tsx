import { useState } from 'preact/hooks';
import { api, type Session } from '../api-client';
import { ErrorNotice } from '../components/error-notice';

/**
 * The console token goes in a password field and is posted once; the page keeps only the session
 * the server answers with (its cookie is HttpOnly, the token is never stored).
 */
export function LoginPage({ onLogin }: { onLogin: (session: Session) => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = form.elements.namedItem('token') as HTMLInputElement;
    setBusy(true);
    setError('');
    try {
      await api('POST', '/login', { token: input.value });
      input.value = '';
      onLogin(await api<Session>('GET', '/session'));
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Login failed.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="login">
      <h1>Signalbox panel</h1>
      <form onSubmit={event => void submit(event)} method="post" autocomplete="off">
        <label for="token">Console token</label>
        <input id="token" name="token" type="password" required autocomplete="off" spellcheck={false} />
        <p class="hint">The admin token, or an account's console token (not an API key).</p>
        <button type="submit" disabled={busy}>
          Log in
        </button>
        <ErrorNotice error={error} />
      </form>
    </main>
  );
}
