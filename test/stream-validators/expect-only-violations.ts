import type { StreamVerdict } from './stream-verdict';

/** Test-only: asserts the verdict has exactly these violations, in order, each containing its fragment. */
export function expectOnlyViolations(verdict: StreamVerdict, ...fragments: string[]): void {
  expect(verdict.violations).toEqual(fragments.map(fragment => expect.stringContaining(fragment)));
}
