/**
 * Takes a database back to before console token roles and the audit log (its triggers go with the
 * table); both SQL stores run it.
 */
export const DROP_AUDIT_LOG = 'DROP TABLE audit_log; ALTER TABLE console_tokens DROP COLUMN role; ';
