export { sampleUsageEntry } from './sample-usage-entry';
export { ADMIN_AUTHORIZATION_CASES, expectedOf, type AuthorizationCase, type CaseIdentity, type ExpectedAnswer } from './admin-authorization-cases';
export {
  ADMIN_ROUTES,
  CASE_CEILING,
  CASE_DEFAULT_KEY_LIMITS,
  CASE_ROUTES,
  CASE_UPSTREAM,
  CASE_UPSTREAMS,
  createAuthorizationFixture,
  createCaseConfig,
  ONE_STEP_LESS,
  ONE_STEP_MORE,
  type AdminAnswer,
  type AdminCall,
  type AdminCaller,
  type AdminRoute,
  type AuthorizationFixture,
} from './authorization-fixture';
export { AUTHORIZATION_RUNS, expectAuthorizationRun, type AuthorizationRun } from './expect-authorization-run';
