/**
 * Takes a database back to before budgets and the alert delivery log (the newest steps): both SQL
 * stores run it, ahead of the older steps' own drops.
 */
export const DROP_BUDGETS_AND_ALERTS =
  'DROP TABLE alert_deliveries; DROP TABLE budgets; DROP INDEX reservations_by_account; ALTER TABLE reservations DROP COLUMN key_id; ALTER TABLE accounts DROP COLUMN budgeted; ';
