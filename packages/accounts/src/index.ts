export type {
  Account,
  AccountPatch,
  AccountStore,
  ApiKeyChange,
  ApiKeyPatch,
  ApiKeyRecord,
  NewAccount,
  NewApiKey,
  HoldOptions,
  HoldTotals,
  KeyDisabledBy,
  Reservation,
  Settled,
} from './store/account-store';
export type {
  FoundItem,
  ResponseRetention,
  ResponseStore,
  StoredItem,
  StoredJSON,
  StoredResponse,
} from './conversations/response-store';
export {
  budgetPeriodEnd,
  budgetPeriodStart,
  budgetRoomMicros,
  tightestBudget,
  type Budget,
  type BudgetChange,
  type BudgetPeriod,
} from './budgets/budget';
export { DEFAULT_ALERT_DELIVERY_RETENTION_DAYS, type AlertDelivery, type AlertDeliveryLog } from './alerts/alert-delivery-log';
export { chargeBudget, spentInPeriod, type StoredBudget } from './budgets/stored-budget';
export { DEFAULT_CACHE_REFRESH_MS, DEFAULT_HOLD_LIFETIME_MS, DEFAULT_HOLD_SWEEP_INTERVAL_MS } from './store/account-store';
export { storedResponseBytes } from './conversations/create-memory-response-store';
export { chargeOnSettle } from './store/charge-on-settle';
export { startStoreSweep, type StoreSweep } from './store/start-store-sweep';
export { createMemoryAccountStore, type MemoryAccountStoreOptions } from './store/create-memory-account-store';
export { effectiveKeyLimits, keyLimitsSchema, type KeyLimits } from './keys/key-limits';
export { IMPLIED_KEY_LIMITS } from './keys/key-limit-bounds';
export {
  apiKeyDigestKey,
  digestsEqual,
  generateApiKey,
  hashApiKey,
  KEY_PREFIX_LENGTH,
  keyPrefix,
  looksLikeApiKey,
} from './keys/api-key-secrets';
export { digestAdminToken, generateAdminToken, looksLikeAdminToken } from './admin/admin-tokens';
export { createAdminService, type AdminService, type AdminServiceOptions } from './admin/create-admin-service';
export {
  ADMIN_OPERATIONS,
  type AdminAnswer,
  type AdminOperation,
  type AdminOperationDescription,
  type AdminOperationRequest,
} from './admin/admin-operations';
export {
  ADMIN_IDENTITY,
  operatorIdentity,
  presentIdentity,
  withOrigin,
  type ConsoleIdentity,
  type ConsoleRole,
  type PresentedIdentity,
  type RequestOrigin,
} from './admin/console-identity';
export type { AuditEntry, AuditFilter, AuditLog, AuditPage, NewAuditEntry } from './audit/audit-log';
export { maskSecrets } from './audit/mask-secrets';
export { AUDIT_CSV_COLUMNS, type AuditedEntity, type RecordAudit } from './admin/create-audit-methods';
export type { ConsoleRoute } from './admin/console-route';
export type { ConsoleCredential, ConsoleUpstream, ConsoleUpstreams } from './admin/console-upstream';
export type { ConsoleAlert } from './admin/create-alert-methods';
export type { AdminRequestHeaders } from './admin/create-console-authenticator';
export { USAGE_CSV_COLUMNS } from './admin/format-usage-csv';
export type { PresentedUsageEntry } from './admin/present-usage-records';
export {
  CONSOLE_TOKEN_PREFIX_LENGTH,
  consoleTokenPrefix,
  generateConsoleToken,
  looksLikeConsoleToken,
} from './console/console-token-secrets';
export type { ConsoleTokenPatch, ConsoleTokenRecord, ConsoleTokenStore, NewConsoleToken } from './console/console-token-store';
export type {
  BalanceEvent,
  UsageBucket,
  UsageCommit,
  UsageEntry,
  UsageFilter,
  UsageGroupBy,
  UsageLedger,
  UsageOutcome,
  UsagePage,
  UsageSummaryRow,
} from './usage/usage-ledger';
export {
  decodeSequenceCursor,
  decodeUsageCursor,
  encodeSequenceCursor,
  encodeUsageCursor,
  type UsagePosition,
} from './usage/usage-cursor';
export { DEFAULT_USAGE_RETENTION_DAYS, USAGE_BUCKET_MS, usageRetentionMs } from './usage/usage-buckets';
export { describeAdminOpenAPISchemas, type AdminQueryName, type AdminSchemaName } from './admin/admin-openapi-schemas';
export type { ConfigChange, ConfigVersion, ConfigVersionStore, ConfigVersionSummary, NewConfigVersion } from './config/config-version-store';
export { createMemoryConfigVersions } from './config/create-memory-config-versions';
export { sealConfigDocument, type ConfigDocument, type ConfigEditing } from './config/create-config-methods';
export { diffConfigDocuments } from './config/diff-config-documents';
export { MASKED_SECRET } from './config/config-secrets';
export { createConfigSealer, type ConfigSealer } from './config/create-config-sealer';
