/** The `accounts` columns every read returns, in `AccountRow` shape. */
export const ACCOUNT_COLUMNS = 'id, name, balance_micros, reserved_micros, subscription, group_name, created_at';

/** One account by id. */
export const SELECT_ACCOUNT = `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`;
