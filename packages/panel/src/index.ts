export { createPanel, type PanelOptions } from './create-panel';
export {
  createSessionStore,
  type PanelSession,
  type SessionStore,
  type SessionStoreOptions,
} from './sessions/create-session-store';
export { checkCsrf, type CsrfCheckInput } from './security/check-csrf';
export type { PanelLogger } from './http/create-panel-error-handler';
export type { ClaimGrant, ClaimMatch, ClaimRule, SingleSignOnOptions } from './sso/single-sign-on-options';
