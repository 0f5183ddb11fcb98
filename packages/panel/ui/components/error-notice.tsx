/** A failure the page reports, announced to screen readers; nothing when there is none. */
export function ErrorNotice({ error }: { error: string }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}
