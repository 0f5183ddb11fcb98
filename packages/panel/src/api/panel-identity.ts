/**
 * Who a panel session belongs to: the admin console (every account) or one account's console
 * token (that account only). What the admin service's `authenticate` returns.
 */
export type PanelIdentity = { kind: 'admin' } | { kind: 'account'; accountId: string; tokenId: string };
