/** Takes a SQLite database back to before its config versions table. */
export const DROP_CONFIG_VERSIONS_TABLE = 'DROP TABLE config_versions; ';

/** Takes a PostgreSQL database back to before its config versions table (its trigger goes with it) and the trigger's function. */
export const DROP_CONFIG_VERSIONS_POSTGRES = 'DROP TABLE config_versions; DROP FUNCTION announce_config_version(); ';
