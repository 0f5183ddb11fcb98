import { ADMIN_AUTHORIZATION_CASES, type AuthorizationCase, type ExpectedAnswer } from './admin-authorization-cases';
import type { AdminCaller, AuthorizationFixture } from './authorization-fixture';

/** One case as one identity, with what that identity must get. */
export type AuthorizationRun = AuthorizationCase & { identity: 'admin' | 'account'; expected: ExpectedAnswer };

/** Every case twice: as the admin token and as the account's console token. */
export const AUTHORIZATION_RUNS: readonly AuthorizationRun[] = ADMIN_AUTHORIZATION_CASES.flatMap(entry => [
  { ...entry, identity: 'admin' as const, expected: entry.admin },
  { ...entry, identity: 'account' as const, expected: entry.account },
]);

/**
 * Makes a run's call and checks its answer: the status, a refusal's code and `param` exactly, the
 * records (`snapshot`) unchanged after a refusal, and the key as the answer shows it after a change.
 */
export async function expectAuthorizationRun(run: AuthorizationRun, fixture: AuthorizationFixture, asAdmin: AdminCaller, snapshot: () => Promise<unknown>): Promise<void> {
  const before = await snapshot();
  const caller = run.identity === 'admin' ? asAdmin : fixture.asAccount;
  const answer = await caller({ route: run.route, ...(run.id && { id: run.id(fixture) }), ...(run.body && { body: run.body(fixture) }) });
  const { effect, ...expected } = run.expected;
  expect({ status: answer.status, code: answer.code, param: answer.param }).toEqual({ code: undefined, param: undefined, ...expected });
  if (answer.status >= 400) expect(await snapshot()).toEqual(before);
  if (effect) expect(run.route === 'POST /keys' ? answer.body.key : answer.body).toMatchObject(effect);
}
