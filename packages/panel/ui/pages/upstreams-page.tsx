import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client';
import { ErrorNotice } from '../components/error-notice';
import { formatCount, formatFailure, formatTime } from '../format';

type Credential = {
  name: string;
  state: 'healthy' | 'cooling-down' | 'circuit-open' | 'circuit-half-open' | 'disabled';
  until: string | null;
  reason: string | null;
  weight: number;
  apiKeyEnv: string | null;
  inFlight: number;
  lastErrorCode: string | null;
  lastErrorAt: string | null;
};

type Upstream = {
  name: string;
  protocol: string;
  state: 'healthy' | 'circuit-open' | 'circuit-half-open';
  until: string | null;
  inFlight: number;
  credentials: Credential[];
};

/** How often the page reads the states again: cooldowns end and circuits close by themselves. */
const POLL_MS = 3000;

const REASONS: Record<string, string> = {
  'upstream-401': 'the upstream refused its key (401)',
  'upstream-403': 'the upstream refused its key (403)',
  'key-missing': 'its variable is not set',
};

/** A state as a person reads it, with its end time or its reason. */
function describeState(state: string, until: string | null, reason: string | null): string {
  switch (state) {
    case 'cooling-down':
      return `cooling down until ${formatTime(until)}`;
    case 'circuit-open':
      return `circuit open until ${formatTime(until)}`;
    case 'circuit-half-open':
      return 'circuit half-open: probing';
    case 'disabled':
      return `disabled: ${REASONS[reason ?? ''] ?? reason ?? 'taken out'}`;
    default:
      return 'healthy';
  }
}

/**
 * The admin console's view of the upstreams: each one and each of its credentials by name, with
 * its state (healthy, cooling down until a time, circuit open, disabled and why), requests in
 * flight and last error, read again every few seconds; a credential taken out or held back can be
 * enabled again from here.
 */
export function UpstreamsPage() {
  const [upstreams, setUpstreams] = useState<Upstream[]>([]);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let stopped = false;
    const load = () =>
      api<{ data: Upstream[] }>('GET', '/upstreams')
        .then(answer => {
          if (stopped) return;
          setUpstreams(answer.data);
          setError('');
        })
        .catch((failure: unknown) => !stopped && setError(formatFailure(failure)));
    void load();
    const timer = setInterval(() => void load(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [generation]);
  const enable = (upstream: Upstream, credential: Credential) =>
    void api('POST', `/upstreams/${encodeURIComponent(upstream.name)}/enable`, { credential: credential.name })
      .then(() => setGeneration(value => value + 1))
      .catch((failure: unknown) => setError(formatFailure(failure)));
  return (
    <>
      <ErrorNotice error={error} />
      {upstreams.map(upstream => (
        <section key={upstream.name} class="upstream" data-upstream={upstream.name} aria-labelledby={`upstream-${upstream.name}`}>
          <h2 id={`upstream-${upstream.name}`}>
            {upstream.name} <span class="muted">{upstream.protocol}</span>
          </h2>
          <p>
            <span class={`status status-${upstream.state}`}>{describeState(upstream.state, upstream.until, null)}</span>
            {' · '}
            {formatCount(upstream.inFlight)} in flight
          </p>
          <table class="credentials">
            <thead>
              <tr>
                <th scope="col">Credential</th>
                <th scope="col">State</th>
                <th scope="col">Weight</th>
                <th scope="col">In flight</th>
                <th scope="col">Last error</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {upstream.credentials.map(credential => (
                <tr key={credential.name} data-credential={credential.name}>
                  <td>
                    {credential.name}
                    {credential.apiKeyEnv && <div class="muted">{credential.apiKeyEnv}</div>}
                  </td>
                  <td>
                    <span class={`status status-${credential.state}`}>{describeState(credential.state, credential.until, credential.reason)}</span>
                  </td>
                  <td class="number">{formatCount(credential.weight)}</td>
                  <td class="number">{formatCount(credential.inFlight)}</td>
                  <td>
                    {credential.lastErrorCode ? (
                      <>
                        <code>{credential.lastErrorCode}</code> <span class="muted">{formatTime(credential.lastErrorAt)}</span>
                      </>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td>
                    {credential.state !== 'healthy' && credential.reason !== 'key-missing' && (
                      <button type="button" class="secondary" aria-label={`Enable ${upstream.name} ${credential.name}`} onClick={() => enable(upstream, credential)}>
                        Enable
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </>
  );
}
