import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { api, base, setCsrfToken, whenSessionLost, type Session } from './api-client';
import { AlertBanner } from './components/alert-banner';
import { AlertsPage } from './pages/alerts-page';
import { AuditPage } from './pages/audit-page';
import { BalancePage } from './pages/balance-page';
import { ConfigPage } from './pages/config-page';
import { KeysPage } from './pages/keys-page';
import { LoginPage } from './pages/login-page';
import { MembersPage } from './pages/members-page';
import { ModelsPage } from './pages/models-page';
import { UpstreamsPage } from './pages/upstreams-page';
import { UsagePage } from './pages/usage-page';
import { useAlerts } from './use-alerts';

/** Who may open a page: everyone, the admin console and accounts' owners, or the admin console alone. */
type Audience = 'everyone' | 'owners' | 'admin';

const PAGES = [
  { path: '/models', title: 'Models', view: ModelsPage, audience: 'everyone' },
  { path: '/keys', title: 'Keys', view: KeysPage, audience: 'everyone' },
  { path: '/usage', title: 'Usage', view: UsagePage, audience: 'everyone' },
  { path: '/balance', title: 'Balance', view: BalancePage, audience: 'everyone' },
  { path: '/members', title: 'Members', view: MembersPage, audience: 'owners' },
  { path: '/audit', title: 'Audit log', view: AuditPage, audience: 'owners' },
  { path: '/upstreams', title: 'Upstreams', view: UpstreamsPage, audience: 'admin' },
  { path: '/alerts', title: 'Alerts', view: AlertsPage, audience: 'admin' },
  { path: '/config', title: 'Config', view: ConfigPage, audience: 'admin' },
] as const satisfies readonly { path: string; title: string; view: unknown; audience: Audience }[];

/** The pages a session may open: an account's console token never sees the operator's, a viewer's never the audit log. */
function pagesOf(session: Session) {
  const { identity } = session;
  const admin = identity.kind === 'admin';
  const owner = identity.kind === 'admin' || identity.role === 'owner';
  return PAGES.filter(page => page.audience === 'everyone' || (page.audience === 'owners' ? owner : admin));
}

/** The page's path below the panel's mount point: `/usage` for `/panel/usage?model=x`. */
function currentPath(): string {
  const path = location.pathname.slice(base.length) || '/';
  return path === '/' || path === '/login' ? '/models' : path;
}

/** Shows the page's own address once logged in: `/panel` and `/panel/login` become `/panel/models`. */
function canonicalizeAddress(): void {
  history.replaceState(null, '', `${base}${currentPath()}${location.search}`);
}

/** Moves to another page of the panel without a reload (the browser's back button still works). */
export function navigate(path: string): void {
  history.pushState(null, '', `${base}${path}`);
  dispatchEvent(new PopStateEvent('popstate'));
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [path, setPath] = useState(currentPath());
  const alerts = useAlerts(session?.identity.kind === 'admin');
  useEffect(() => {
    const moved = () => setPath(currentPath());
    addEventListener('popstate', moved);
    whenSessionLost(() => setSession(null));
    // No content when this browser holds no session: the login page, without an error.
    api<Session | undefined>('GET', '/session')
      .then(found => {
        if (!found) return setSession(null);
        setCsrfToken(found.csrfToken);
        canonicalizeAddress();
        setSession(found);
      })
      .catch(() => setSession(null));
    return () => removeEventListener('popstate', moved);
  }, []);
  useEffect(() => {
    const page = PAGES.find(candidate => candidate.path === path);
    document.title = session ? `${page?.title ?? 'Panel'} · Signalbox` : 'Log in · Signalbox';
  }, [path, session]);
  if (session === undefined) return <p class="loading">Loading…</p>;
  if (session === null) {
    return (
      <LoginPage
        onLogin={opened => {
          setCsrfToken(opened.csrfToken);
          canonicalizeAddress();
          setPath(currentPath());
          setSession(opened);
        }}
      />
    );
  }
  const pages = pagesOf(session);
  const page = pages.find(candidate => candidate.path === path) ?? pages[0]!;
  const View = page.view;
  const logout = async () => {
    await api('POST', '/logout').catch(() => undefined);
    setCsrfToken('');
    setSession(null);
  };
  return (
    <>
      <header class="top">
        <strong class="brand">Signalbox</strong>
        <nav aria-label="Panel">
          {pages.map(candidate => (
            <a
              key={candidate.path}
              href={`${base}${candidate.path}`}
              aria-current={candidate.path === page.path ? 'page' : undefined}
              onClick={event => {
                event.preventDefault();
                navigate(candidate.path);
              }}
            >
              {candidate.title}
            </a>
          ))}
        </nav>
        <span class="who">
          {session.me.account ? `Account: ${session.me.account.name}` : 'Admin console'}
          {session.identity.kind === 'account' && session.identity.role === 'viewer' ? ' (viewer)' : ''}
        </span>
        <button type="button" class="secondary" onClick={() => void logout()}>
          Log out
        </button>
      </header>
      <AlertBanner active={alerts.active} />
      <main id="main">
        <h1>{page.title}</h1>
        <View session={session} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
