/** One change between two config versions, as the admin API lists it (secrets masked). */
export type ConfigChange = { path: string; kind: 'added' | 'removed' | 'changed'; before?: unknown; after?: unknown };

const SIGNS = { added: '+', removed: '−', changed: '~' } as const;

/** A value of a change as compact JSON (absent: nothing). */
function show(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value);
}

/** What a version changed, one line per path: added, removed, or changed from one value to another. */
export function ConfigDiff({ changes }: { changes: readonly ConfigChange[] }) {
  if (changes.length === 0) return <p class="muted">No changes.</p>;
  return (
    <ul class="config-diff" aria-label="Changes">
      {changes.map(change => (
        <li key={`${change.kind}:${change.path}`} class={`change-${change.kind}`} data-path={change.path}>
          <span aria-hidden="true">{SIGNS[change.kind]} </span>
          <code>{change.path}</code> {change.kind}
          {change.kind !== 'added' && <pre class="before">{show(change.before)}</pre>}
          {change.kind !== 'removed' && <pre class="after">{show(change.after)}</pre>}
        </li>
      ))}
    </ul>
  );
}
