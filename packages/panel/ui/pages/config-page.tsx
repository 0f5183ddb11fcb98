import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client';
import { ConfigDiff, type ConfigChange } from '../components/config-diff';
import { ConfigVersionsTable, type ConfigVersionSummary } from '../components/config-versions-table';
import { ErrorNotice } from '../components/error-notice';
import { formatFailure, formatTime } from '../format';

type CurrentConfig = { source: 'store' | 'file'; version: number | null; author: string | null; createdAt: string | null; document: unknown };
type ShownDiff = { version: number; changes: ConfigChange[] };

/**
 * The admin console's live configuration: the routes, upstreams and prices in force as JSON to edit
 * (checked by the gateway, which refuses a bad change whole and names each path), the versions with
 * who made them, what each changed, and a rollback to any of them. With the file as the only source
 * the document is shown read-only.
 */
export function ConfigPage() {
  const [current, setCurrent] = useState<CurrentConfig | undefined>(undefined);
  const [versions, setVersions] = useState<ConfigVersionSummary[]>([]);
  const [text, setText] = useState('');
  const [diff, setDiff] = useState<ShownDiff | undefined>(undefined);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const load = async () => {
    const config = await api<CurrentConfig>('GET', '/config');
    setCurrent(config);
    setText(JSON.stringify(config.document, null, 2));
    if (config.source === 'store') setVersions((await api<{ data: ConfigVersionSummary[] }>('GET', '/config/versions?limit=50')).data);
  };
  useEffect(() => void load().catch((failure: unknown) => setError(formatFailure(failure))), []);
  const act = (action: () => Promise<{ version: number; diff: ConfigChange[] }>) =>
    void action()
      .then(async written => {
        setError('');
        setNotice(`Version ${written.version} is in force.`);
        setDiff({ version: written.version, changes: written.diff });
        await load();
      })
      .catch((failure: unknown) => {
        setNotice('');
        setError(formatFailure(failure));
      });
  const save = () => {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      setError('The document is not valid JSON.');
      return;
    }
    act(() => api('POST', '/config/versions', { document, ...(current?.version != null && { baseVersion: current.version }) }));
  };
  const show = (version: number) =>
    void api<{ changes: ConfigChange[] }>('GET', `/config/versions/${version}/diff`)
      .then(answer => setDiff({ version, changes: answer.changes }))
      .catch((failure: unknown) => setError(formatFailure(failure)));
  if (!current) return <ErrorNotice error={error} />;
  const editable = current.source === 'store';
  return (
    <>
      <ErrorNotice error={error} />
      {notice && <p role="status">{notice}</p>}
      <p>
        {editable
          ? `Version ${current.version} by ${current.author}, ${formatTime(current.createdAt)}. Changes apply to new requests on every instance within a second.`
          : 'The config file is the only source (config.source: "file"): change the file and restart.'}
      </p>
      <label for="config-document">Routes and upstreams (JSON; secrets show as [secret] and keep their value)</label>
      <textarea id="config-document" class="config-editor" rows={24} spellcheck={false} readOnly={!editable} value={text} onInput={event => setText(event.currentTarget.value)} />
      {editable && (
        <p>
          <button type="button" onClick={save}>
            Save as a new version
          </button>
        </p>
      )}
      {diff && (
        <section aria-labelledby="config-diff-title">
          <h2 id="config-diff-title">Changes of version {diff.version}</h2>
          <ConfigDiff changes={diff.changes} />
        </section>
      )}
      {editable && (
        <section aria-labelledby="config-versions-title">
          <h2 id="config-versions-title">Versions</h2>
          <ConfigVersionsTable versions={versions} current={current.version} editable={editable} onShow={show} onRollback={version => act(() => api('POST', `/config/versions/${version}/rollback`))} />
        </section>
      )}
    </>
  );
}
