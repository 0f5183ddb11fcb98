// Row and query helpers the SQL stores share (`@signalbox/store-sqlite`, `@signalbox/store-postgres`):
// how a record maps to its table's columns and back, and the usage ledger's queries.
export { keyLimitCeilingColumn, toAccount, type AccountRow } from './account-row';
export { toHoldTotals, type HoldTotalsRow } from './hold-totals-row';
export { newApiKeyRowValues, toApiKeyRecord, toPatchedColumns, type ApiKeyMutableColumns, type ApiKeyRow } from './api-key-row';
export { CONSOLE_TOKEN_COLUMNS, consoleTokenPatchAssignments, newConsoleTokenRowValues, toConsoleTokenRecord } from './console-token-row';
export { USAGE_COLUMNS, toUsageEntry, usageRowValues } from './usage-row';
export {
  listItemPositions,
  responseRowValues,
  toResponseColumns,
  toStoredResponse,
  type ItemPosition,
  type ResponseColumns,
  type ResponseRow,
} from './response-row';
export { buildUsageWhere, type Placeholder, type UsageWhere } from './usage-where';
export { summarizeUsageSql, toUsageSummaryRow } from './summarize-usage-sql';
export { BALANCE_EVENT_COLUMNS, toBalanceEvent } from './balance-event-row';
export { findDigestMatch } from './find-digest-match';
export { BUDGET_COLUMNS, toBudget, type BudgetRow } from './budget-row';
export {
  ALERT_DELIVERY_COLUMNS,
  ALERT_DELIVERY_DELETE_CHUNK,
  alertDeliveryRowValues,
  deleteAlertDeliveriesChunkSQL,
  toAlertDelivery,
} from './alert-delivery-row';
export { AUDIT_COLUMNS, AUDIT_INSERT_COLUMNS, auditRowValues, buildAuditWhere, toAuditEntry } from './audit-row';
export { CONFIG_VERSION_SUMMARY_COLUMNS, configVersionRowValues, toConfigVersion, toConfigVersionSummary } from './config-version-row';
// What the SQL stores' ledger code needs besides the rows, so a thread that writes the ledger loads
// this entry alone, not the whole package (its admin schemas and their validator).
export { chargeOnSettle } from '../store/charge-on-settle';
export { totalHolds } from '../store/total-holds';
export { budgetPeriodStart, budgetRoomMicros } from '../budgets/budget';
export { decodeSequenceCursor, decodeUsageCursor, encodeSequenceCursor, encodeUsageCursor } from '../usage/usage-cursor';
export { USAGE_BUCKET_MS } from '../usage/usage-buckets';
