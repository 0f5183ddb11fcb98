import type { SharedStorageChoice } from './choose-shared-storage';

/**
 * One line for the start-up banner and log: where keys, balances and the ledger live and where the
 * limits are counted, and which setting chose each (a variable's or a config file field's name,
 * never a URL), so an operator sees at once whether the environment or the file won.
 */
export function describeStorageChoice(choice: SharedStorageChoice, dataDirectory: string): string {
  const database = choice.database ? `PostgreSQL (chosen by ${choice.sources.database})` : `the data folder ${dataDirectory} (SQLite)`;
  const limits = choice.redis ? `Redis (chosen by ${choice.sources.redis})` : 'process memory (this instance only)';
  return `Storage: ${database}; limits: ${limits}`;
}
