/**
 * Takes a PostgreSQL database back to before account changes were announced (the newest step): run
 * ahead of the older steps' own drops, since the trigger reads columns they drop.
 */
export const DROP_ACCOUNT_ANNOUNCEMENTS =
  'DROP TRIGGER accounts_announce ON accounts; DROP TRIGGER accounts_announce_delete ON accounts; DROP FUNCTION announce_account_change(); ';
