/** What each code the single sign-on callback sends back means to the person who tried. */
const REASONS: Readonly<Record<string, string>> = {
  SSO_REFUSED:
    'You signed in at the provider, but no rule of this panel gives you a role. Ask the operator to map your group or email domain to one.',
  SSO_LOGIN_FAILED:
    'The single sign-on login could not be completed: it was started in another browser, took too long, or the provider refused it. Start it again.',
  SSO_UNAVAILABLE: 'The single sign-on provider could not be reached. Try again later, or log in with a console token.',
  RATE_LIMITED: 'Too many logins from this address; wait a few minutes before trying again.',
  PANEL_SESSIONS_FULL: 'The panel has as many sessions open as it keeps; try again later.',
};

/**
 * The reason a single sign-on login ended on the login page (`?sso_error=…&request_id=…`), with the
 * request id the operator finds in the log; nothing on a plain visit.
 */
export function SingleSignOnNotice() {
  const query = new URLSearchParams(location.search);
  const code = query.get('sso_error');
  if (!code) return null;
  const requestId = /^req_[A-Za-z0-9]{1,64}$/.test(query.get('request_id') ?? '') ? query.get('request_id') : null;
  return (
    <section class="sso-refusal" role="alert" aria-labelledby="sso-refusal-title">
      <h2 id="sso-refusal-title">{code === 'SSO_REFUSED' ? 'Single sign-on refused' : 'Single sign-on failed'}</h2>
      <p>{REASONS[code] ?? 'The single sign-on login failed. Start it again.'}</p>
      {requestId && (
        <p class="hint">
          Request ID: <code>{requestId}</code>
        </p>
      )}
    </section>
  );
}
