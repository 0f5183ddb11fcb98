import type { ComponentChildren } from 'preact';
import { CopyButton } from './copy-button';

/** A secret just created (an API key, a console token), shown this once with a copy button until Done. */
export function NewSecret(props: { id: string; title: string; secret: string; copyLabel: string; onDone: () => void; children: ComponentChildren }) {
  return (
    <section class="secret" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      <p>{props.children}</p>
      <p>
        <code class="key-secret">{props.secret}</code> <CopyButton text={props.secret} label={props.copyLabel} />
      </p>
      <button type="button" class="secondary" onClick={props.onDone}>
        Done
      </button>
    </section>
  );
}
