import { useEffect, useState } from 'preact/hooks';
import { api, base, type Session } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { SingleSignOnNotice } from '../components/single-sign-on-notice';

type LoginMethods = { token: boolean; sso: { providerName: string } | null };

/**
 * The console token goes in a password field and is posted once; the page keeps only the session
 * the server answers with (its cookie is HttpOnly, the token is never stored). When the operator
 * set up single sign-on, its button leads to the provider, which sends the browser back logged in,
 * or back here with the reason it was not.
 */
export function LoginPage({ onLogin }: { onLogin: (session: Session) => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [methods, setMethods] = useState<LoginMethods | undefined>();
  useEffect(() => {
    api<LoginMethods>('GET', '/login-methods')
      .then(setMethods)
      .catch(() => setMethods({ token: true, sso: null }));
  }, []);
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
      <SingleSignOnNotice />
      {methods?.sso && (
        <section class="sso" aria-label="Single sign-on">
          <a class="button" href={`${base}/api/sso/login`}>
            Sign in with {methods.sso.providerName}
          </a>
          <p class="hint">Or, for automation and the operator, a console token:</p>
        </section>
      )}
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
