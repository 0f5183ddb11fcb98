export type {
  Account,
  AccountPatch,
  AccountStore,
  ApiKeyPatch,
  ApiKeyRecord,
  NewAccount,
  NewApiKey,
  Reservation,
} from './store/account-store';
export { createMemoryAccountStore } from './store/create-memory-account-store';
export { keyLimitsSchema, type KeyLimits } from './keys/key-limits';
export {
  digestsEqual,
  generateApiKey,
  hashApiKey,
  KEY_PREFIX_LENGTH,
  keyPrefix,
  looksLikeApiKey,
} from './keys/api-key-secrets';
export { digestAdminToken, generateAdminToken, looksLikeAdminToken } from './admin/admin-tokens';
export { createAdminService, type AdminService, type AdminServiceOptions } from './admin/create-admin-service';
