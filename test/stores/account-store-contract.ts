import type { AccountStore } from '@signalbox/accounts';
import type { ContractContext, StoreClock } from './contract-context';
import { describeAlertDeliveries } from './describe-alert-delivery-contract';
import { describeAuditLog } from './describe-audit-log-contract';
import { describeBudgets } from './describe-budget-contract';
import { describeHoldExpiry } from './describe-hold-expiry-contract';
import { describeAccounts } from './describe-account-contract';
import { describeKeys } from './describe-api-key-contract';
import { describeConfigVersions } from './describe-config-version-contract';
import { describeConsoleTokens } from './describe-console-token-contract';
import { describeCopies } from './describe-copy-contract';
import { describeReservations } from './describe-reservation-contract';
import { describeResponseStore } from './describe-response-store-contract';
import { describeUsageLedger } from './describe-usage-ledger-contract';

/** Builds a store under test (on the given clock, if any); each test gets a fresh one and closes it afterwards. */
export type AccountStoreFactory = (clock?: StoreClock) => Promise<AccountStore> | AccountStore;

/**
 * The behaviour every `AccountStore` must share (memory, SQLite, any later backend): run it once
 * per implementation. It checks every method of the interface (console tokens included), the reserve/settle arithmetic,
 * atomic reservation under 200 concurrent calls, budgets (held with the balance, renewed by period), the alert delivery log, hold expiry and its sweep, that results are copies,
 * stored conversations (ownership, expiry, item lookup, the size cap, their sweep), and the usage
 * ledger (commits, queries, summaries, retention, balance events), config versions, and the audit log
 * (entries whole, filters, paging, retention).
 */
export function describeAccountStoreContract(name: string, createStore: AccountStoreFactory): void {
  describe(`${name}: AccountStore contract`, () => {
    const context: ContractContext = {
      store: undefined as unknown as AccountStore,
      createStore: async clock => createStore(clock),
    };
    beforeEach(async () => {
      context.store = await createStore();
    });
    afterEach(async () => {
      await context.store.close();
    });

    describeAccounts(context);
    describeKeys(context);
    describeConsoleTokens(context);
    describeReservations(context);
    describeHoldExpiry(context);
    describeBudgets(context);
    describeAlertDeliveries(context);
    describeCopies(context);
    describeResponseStore(context);
    describeUsageLedger(context);
    describeConfigVersions(context);
    describeAuditLog(context);
  });
}
