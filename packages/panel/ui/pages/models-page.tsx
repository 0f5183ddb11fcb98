import { useEffect, useState } from 'preact/hooks';
import { api, type Session } from '../api-client';
import { CodeBlock, CopyButton } from '../components/copy-button';
import { formatCount, formatMoney } from '../format';
import { buildSnippets } from '../snippets';
import { ErrorNotice } from '../components/error-notice';

type Route = {
  model: string;
  description: string | null;
  interfaces: { name: string; protocol: string; path: string }[];
  contextTokens: number | null;
  pricing: { inputPerMillion: number; outputPerMillion: number; cachedInputPerMillion: number | null } | null;
};

const INTERFACE_NAMES: Record<string, string> = {
  responses: 'Responses',
  messages: 'Messages',
  chat: 'Chat Completions',
};

function formatPricing(pricing: NonNullable<Route['pricing']>): string {
  const cached =
    pricing.cachedInputPerMillion === null ? '' : ` (cached input ${formatMoney(pricing.cachedInputPerMillion)})`;
  return `${formatMoney(pricing.inputPerMillion)} / ${formatMoney(pricing.outputPerMillion)}${cached}`;
}

/** Every route with its exact model ID, interfaces, price and context, and snippets for the chosen one. */
export function ModelsPage({ session }: { session: Session }) {
  const [routes, setRoutes] = useState<Route[]>([]);
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState('');
  useEffect(() => {
    api<{ data: Route[] }>('GET', '/routes')
      .then(answer => {
        setRoutes(answer.data);
        setChosen(answer.data[0]?.model ?? '');
      })
      .catch((failure: Error) => setError(failure.message));
  }, []);
  const route = routes.find(candidate => candidate.model === chosen);
  return (
    <>
      <ErrorNotice error={error} />
      <p>
        Base URL: <code>{session.baseURL}</code> <CopyButton text={session.baseURL} label="Copy base URL" />
      </p>
      <table class="models">
        <thead>
          <tr>
            <th scope="col">Model ID</th>
            <th scope="col">Interfaces</th>
            <th scope="col">Input / output per million tokens</th>
            <th scope="col">Context</th>
          </tr>
        </thead>
        <tbody>
          {routes.map(candidate => (
            <tr key={candidate.model}>
              <td>
                <code class="model-id">{candidate.model}</code>{' '}
                <CopyButton text={candidate.model} label={`Copy model ID ${candidate.model}`} />
                {candidate.description && <div class="muted">{candidate.description}</div>}
              </td>
              <td>
                {candidate.interfaces.map(entry => (
                  <div key={entry.name}>
                    {INTERFACE_NAMES[entry.name] ?? entry.name} <code class="muted">{entry.path}</code>
                  </div>
                ))}
              </td>
              <td>{candidate.pricing ? formatPricing(candidate.pricing) : 'not billed'}</td>
              <td>{candidate.contextTokens ? `${formatCount(candidate.contextTokens)} tokens` : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Snippets</h2>
      <label for="snippet-model">Model</label>{' '}
      <select
        id="snippet-model"
        value={chosen}
        onChange={event => setChosen((event.currentTarget as HTMLSelectElement).value)}
      >
        {routes.map(candidate => (
          <option key={candidate.model} value={candidate.model}>
            {candidate.model}
          </option>
        ))}
      </select>
      <p class="hint">
        Set <code>SIGNALBOX_API_KEY</code> to one of your keys (Keys page) first.
      </p>
      <div class="snippets">
        {route &&
          buildSnippets(
            session.baseURL,
            route.model,
            route.interfaces.map(entry => entry.name),
          ).map(snippet => <CodeBlock key={snippet.title} title={snippet.title} code={snippet.code} />)}
      </div>
    </>
  );
}
