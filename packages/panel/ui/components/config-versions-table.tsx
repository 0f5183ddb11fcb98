import { formatCount, formatTime } from '../format';

/** A config version as the admin API lists it. */
export type ConfigVersionSummary = { version: number; author: string; createdAt: string; restoredFrom: number | null; changes: number };

type Props = {
  versions: readonly ConfigVersionSummary[];
  /** The version in force (the newest): it cannot be rolled back to. */
  current: number | null;
  /** Whether changes are allowed (the store is the source). */
  editable: boolean;
  onShow(version: number): void;
  onRollback(version: number): void;
};

/** The config versions, newest first: who made each and when, what it restored, how much it changed. */
export function ConfigVersionsTable({ versions, current, editable, onShow, onRollback }: Props) {
  return (
    <table class="config-versions">
      <thead>
        <tr>
          <th scope="col">Version</th>
          <th scope="col">Author</th>
          <th scope="col">Time</th>
          <th scope="col">Changes</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {versions.map(version => (
          <tr key={version.version} data-version={version.version}>
            <td class="number">
              {version.version}
              {version.version === current && <span class="muted"> (in force)</span>}
            </td>
            <td>
              {version.author}
              {version.restoredFrom !== null && <div class="muted">rollback to {version.restoredFrom}</div>}
            </td>
            <td>{formatTime(version.createdAt)}</td>
            <td class="number">{formatCount(version.changes)}</td>
            <td>
              <button type="button" class="secondary" aria-label={`Show the changes of version ${version.version}`} onClick={() => onShow(version.version)}>
                Diff
              </button>{' '}
              {editable && version.version !== current && (
                <button type="button" class="secondary" aria-label={`Roll back to version ${version.version}`} onClick={() => onRollback(version.version)}>
                  Roll back
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
