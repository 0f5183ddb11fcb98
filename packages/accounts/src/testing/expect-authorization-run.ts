import { ADMIN_AUTHORIZATION_CASES, expectedOf, type AuthorizationCase, type CaseIdentity, type ExpectedAnswer } from './admin-authorization-cases';
import type { AdminCaller, AuthorizationFixture } from './authorization-fixture';

/** One case as one identity, with what that identity must get. */
export type AuthorizationRun = AuthorizationCase & { identity: CaseIdentity; expected: ExpectedAnswer };

const IDENTITIES: readonly CaseIdentity[] = ['admin', 'account', 'viewer', 'stranger'];

/** Every case four times: as the admin token, the account's owner and viewer, and another account's owner. */
export const AUTHORIZATION_RUNS: readonly AuthorizationRun[] = ADMIN_AUTHORIZATION_CASES.flatMap(entry =>
  IDENTITIES.map(identity => ({ ...entry, identity, expected: expectedOf(entry, identity) })),
);

/**
 * Makes a run's call and checks its answer: the status, a refusal's code and `param` exactly, the
 * records (`snapshot`) unchanged after a refusal, and the key as the answer shows it after a change.
 */
export async function expectAuthorizationRun(run: AuthorizationRun, fixture: AuthorizationFixture, asAdmin: AdminCaller, snapshot: () => Promise<unknown>): Promise<void> {
  const before = await snapshot();
  const caller = { admin: asAdmin, account: fixture.asAccount, viewer: fixture.asViewer, stranger: fixture.asStranger }[run.identity];
  const answer = await caller({ route: run.route, ...(run.id && { id: run.id(fixture) }), ...(run.body && { body: run.body(fixture) }) });
  const { effect, ...expected } = run.expected;
  expect({ status: answer.status, code: answer.code, param: answer.param }).toEqual({ code: undefined, param: undefined, ...expected });
  if (answer.status >= 400) expect(await snapshot()).toEqual(before);
  if (effect) expect(run.route === 'POST /keys' ? answer.body.key : answer.body).toMatchObject(effect);
}
