import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { api, base, setCsrfToken, whenSessionLost, type Session } from './api-client';
import { BalancePage } from './pages/balance-page';
import { ConfigPage } from './pages/config-page';
import { KeysPage } from './pages/keys-page';
import { LoginPage } from './pages/login-page';
import { ModelsPage } from './pages/models-page';
import { UpstreamsPage } from './pages/upstreams-page';
import { UsagePage } from './pages/usage-page';

const PAGES = [
  { path: '/models', title: 'Models', view: ModelsPage, adminOnly: false },
  { path: '/keys', title: 'Keys', view: KeysPage, adminOnly: false },
  { path: '/usage', title: 'Usage', view: UsagePage, adminOnly: false },
  { path: '/balance', title: 'Balance', view: BalancePage, adminOnly: false },
  { path: '/upstreams', title: 'Upstreams', view: UpstreamsPage, adminOnly: true },
  { path: '/config', title: 'Config', view: ConfigPage, adminOnly: true },
] as const;

/** The pages a session may open: an account's console token never sees the operator's. */
function pagesOf(session: Session) {
  return PAGES.filter(page => !page.adminOnly || session.identity.kind === 'admin');
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
  useEffect(() => {
    const moved = () => setPath(currentPath());
    addEventListener('popstate', moved);
    whenSessionLost(() => setSession(null));
    api<Session>('GET', '/session')
      .then(found => {
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
        </span>
        <button type="button" class="secondary" onClick={() => void logout()}>
          Log out
        </button>
      </header>
      <main id="main">
        <h1>{page.title}</h1>
        <View session={session} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
