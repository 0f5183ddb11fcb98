export { createPanel, type PanelOptions } from './create-panel';
export { createPanelApi, type PanelApi, type PanelApiOptions } from './api/create-panel-api';
export type { PanelIdentity } from './api/panel-identity';
export type { PanelRoute } from './api/panel-route';
export { createSessionStore, type PanelSession, type SessionStore, type SessionStoreOptions } from './sessions/create-session-store';
export { checkCsrf, type CsrfCheckInput } from './security/check-csrf';
export { PANEL_SECURITY_HEADERS } from './security/security-headers';
