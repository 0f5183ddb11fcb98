import type { SQLInputValue } from 'node:sqlite';
import { USAGE_EQUALITY_FILTERS, type UsageFilter, type UsagePosition } from '@switchyard/accounts';

/** A WHERE clause (empty when nothing filters) with its named parameters, and a key naming its shape. */
export type UsageWhere = { sql: string; parameters: Record<string, SQLInputValue>; shape: string };

/**
 * The WHERE of a ledger query: one equality per filter given, the time range, and for a page after
 * a cursor the row-value comparison `(time, request_id) < (…)`, which SQLite turns into a range
 * scan of whichever `(…, time, request_id)` index the equalities select. Values are bound, never
 * spliced; `shape` (which clauses are present) keys the cache of prepared statements.
 */
export function buildUsageWhere(filter: UsageFilter, after?: UsagePosition): UsageWhere {
  const clauses: string[] = [];
  const parameters: Record<string, SQLInputValue> = {};
  for (const [field, column] of USAGE_EQUALITY_FILTERS) {
    const value = filter[field];
    if (value === undefined) continue;
    clauses.push(`${column} = :${field}`);
    parameters[field] = value;
  }
  if (filter.from !== undefined) {
    clauses.push('time >= :from');
    parameters['from'] = filter.from;
  }
  if (filter.to !== undefined) {
    clauses.push('time < :to');
    parameters['to'] = filter.to;
  }
  if (after) {
    clauses.push('(time, request_id) < (:afterTime, :afterRequestId)');
    parameters['afterTime'] = after.time;
    parameters['afterRequestId'] = after.requestId;
  }
  return {
    sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '',
    parameters,
    shape: clauses.join(' AND '),
  };
}
