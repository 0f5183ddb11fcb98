import { GatewayError } from '@switchyard/core';
import type { AdminService } from '@switchyard/accounts';
import type { PanelIdentity } from './panel-identity';
import { presentRoute, type PanelRoute } from './panel-route';

export type PanelApiOptions = {
  admin: AdminService;
  /** The routes the Models page lists, in config order. */
  routes: () => readonly PanelRoute[];
};

export type PanelApi = ReturnType<typeof createPanelApi>;

/**
 * What the panel page may ask for, framework-free: each call takes the session's identity and is
 * answered by the admin service in-process, scoped to that identity (an account's session sees
 * and changes only its own account).
 */
export function createPanelApi(options: PanelApiOptions) {
  const { admin } = options;
  const scopedAccount = (identity: PanelIdentity, requested?: string): string | undefined =>
    identity.kind === 'account' ? identity.accountId : requested || undefined;
  const requireAdmin = (identity: PanelIdentity) => {
    if (identity.kind !== 'admin') throw new GatewayError({ code: 'PANEL_REQUEST_FORBIDDEN', message: 'Only the admin console may do this.' });
  };
  const ownKey = async (identity: PanelIdentity, keyId: string) => {
    const { data } = await admin.listKeys(scopedAccount(identity));
    if (!data.some(key => key.id === keyId)) throw new GatewayError({ code: 'RESOURCE_NOT_FOUND', message: 'No such key.' });
  };
  return {
    routes: () => ({ data: options.routes().map(presentRoute) }),
    async accounts(identity: PanelIdentity) {
      const { data } = await admin.listAccounts();
      return { data: identity.kind === 'admin' ? data : data.filter(account => account.id === identity.accountId) };
    },
    listKeys: (identity: PanelIdentity, accountId?: string) => admin.listKeys(scopedAccount(identity, accountId)),
    async createKey(identity: PanelIdentity, body: unknown) {
      const input = typeof body === 'object' && body !== null ? { ...(body as Record<string, unknown>) } : {};
      if (identity.kind === 'account') input.accountId = identity.accountId;
      return admin.createKey(input);
    },
    async updateKey(identity: PanelIdentity, keyId: string, body: unknown) {
      await ownKey(identity, keyId);
      return admin.updateKey(keyId, body);
    },
    async topUp(identity: PanelIdentity, accountId: string, body: unknown) {
      requireAdmin(identity);
      return admin.adjustBalance(accountId, body);
    },
  };
}
