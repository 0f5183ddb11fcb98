export type {
  Account,
  AccountPatch,
  AccountStore,
  ApiKeyPatch,
  ApiKeyRecord,
  NewAccount,
  NewApiKey,
  HoldOptions,
  HoldTotals,
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
export { DEFAULT_CACHE_REFRESH_MS, DEFAULT_HOLD_LIFETIME_MS, DEFAULT_HOLD_SWEEP_INTERVAL_MS } from './store/account-store';
export { createMemoryResponseStore, storedResponseBytes } from './conversations/create-memory-response-store';
export { chargeOnSettle } from './store/charge-on-settle';
export { totalHolds } from './store/total-holds';
export { startStoreSweep, type StoreSweep } from './store/start-store-sweep';
export { createMemoryAccountStore, type MemoryAccountStoreOptions } from './store/create-memory-account-store';
export { keyLimitsSchema, type KeyLimits } from './keys/key-limits';
export {
  digestsEqual,
  generateApiKey,
  hashApiKey,
  KEY_PREFIX_LENGTH,
  keyPrefix,
  looksLikeApiKey,
  randomBase62,
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
export { ADMIN_IDENTITY, presentIdentity, type ConsoleIdentity } from './admin/console-identity';
export type { ConsoleRoute } from './admin/console-route';
export type { AdminRequestHeaders } from './admin/create-console-authenticator';
export { MAX_SUMMARY_BUCKETS } from './admin/create-usage-methods';
export { MAX_USAGE_PAGE } from './admin/usage-query-schemas';
export { formatCsvCell, USAGE_CSV_COLUMNS } from './admin/format-usage-csv';
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
export {
  bucketStart,
  DEFAULT_USAGE_RETENTION_DAYS,
  nearestRankPercentile,
  USAGE_BUCKET_MS,
  usageRetentionMs,
} from './usage/usage-buckets';
export { matchesUsageFilter, newestFirst } from './usage/matches-usage-filter';
export { summarizeEntries, usageGroupValue } from './usage/summarize-entries';
export { toAccount, type AccountRow } from './rows/account-row';
export { toHoldTotals, type HoldTotalsRow } from './rows/hold-totals-row';
export { newApiKeyRowValues, toApiKeyRecord, toPatchedColumns, type ApiKeyMutableColumns, type ApiKeyRow } from './rows/api-key-row';
export { CONSOLE_TOKEN_COLUMNS, newConsoleTokenRowValues, toConsoleTokenRecord } from './rows/console-token-row';
export { USAGE_COLUMNS, toUsageEntry, usageRowValues } from './rows/usage-row';
export {
  listItemPositions,
  responseRowValues,
  toResponseColumns,
  toStoredResponse,
  type ItemPosition,
  type ResponseColumns,
  type ResponseRow,
} from './rows/response-row';
export { USAGE_EQUALITY_FILTERS, USAGE_GROUP_EXPRESSIONS } from './rows/usage-filter-columns';
export { buildUsageWhere, NAMED_PLACEHOLDER, type Placeholder, type UsageWhere } from './rows/usage-where';
export { summarizeUsageSql, toUsageSummaryRow } from './rows/summarize-usage-sql';
export { BALANCE_EVENT_COLUMNS, toBalanceEvent } from './rows/balance-event-row';
export { findDigestMatch } from './rows/find-digest-match';
export { describeAdminOpenAPISchemas, type AdminQueryName, type AdminSchemaName } from './admin/admin-openapi-schemas';
