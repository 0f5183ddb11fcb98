/** Compile-time exhaustiveness for `switch` over unions (local copy: this package imports no workspace code). */
export function assertNever(value: never, context: string): never {
  throw new Error(`Unhandled ${context}: ${JSON.stringify(value)}`);
}
