/**
 * A module's worth of code loaded the first time it is asked for (a dynamic `import()`, kept off
 * the gateway's idle memory), then kept: later callers get the loaded value itself, so a request
 * never imports; while the first load runs they share its promise.
 */
export function loadOnce<Value>(load: () => Promise<Value>): () => Value | Promise<Value> {
  let loading: Promise<Value> | undefined;
  let loaded: { value: Value } | undefined;
  return () =>
    loaded ? loaded.value : (loading ??= load().then(
      value => {
        loaded = { value };
        return value;
      },
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
}
