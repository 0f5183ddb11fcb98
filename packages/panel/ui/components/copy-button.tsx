import { useState } from 'preact/hooks';

/** Copies `text` to the clipboard and says so for a moment (announced to screen readers). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2000);
  };
  return (
    <button type="button" class="copy" onClick={() => void copy()} aria-label={label} data-copy={text}>
      <span aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
      </span>
    </button>
  );
}

/** A block of code with its copy button. */
export function CodeBlock({ title, code }: { title: string; code: string }) {
  return (
    <figure class="code-block">
      <figcaption>
        <span>{title}</span>
        <CopyButton text={code} label={`Copy ${title}`} />
      </figcaption>
      <pre>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
