import type { UsagePosition } from '../usage/usage-cursor';
import type { UsageFilter } from '../usage/usage-ledger';
import { USAGE_EQUALITY_FILTERS } from './usage-filter-columns';

/** A WHERE clause (empty when nothing filters) with its parameters, by name and in the order they appear. */
export type UsageWhere = {
  sql: string;
  parameters: Record<string, string | number>;
  values: Array<string | number>;
};

/** How a driver writes the `position`-th bound parameter (1-based) named `name`: `:name`, `$1`. */
export type Placeholder = (name: string, position: number) => string;

/** SQLite's named parameters (`:name`). */
export const NAMED_PLACEHOLDER: Placeholder = name => `:${name}`;

/**
 * The WHERE of a ledger query: one equality per filter given, the time range, and for a page after
 * a cursor the row-value comparison `(time, request_id) < (…)`, which SQLite and PostgreSQL both
 * turn into a range scan of whichever `(…, time, request_id)` index the equalities select. Values
 * are bound, never spliced, so the SQL text depends only on which clauses are present.
 */
export function buildUsageWhere(
  filter: UsageFilter,
  after?: UsagePosition,
  placeholder: Placeholder = NAMED_PLACEHOLDER,
): UsageWhere {
  const where = createWhereBuilder(placeholder);
  for (const [field, column] of USAGE_EQUALITY_FILTERS) where.equal(column, field, filter[field]);
  where.timeRange(filter.from, filter.to);
  if (after) {
    const time = where.bind('afterTime', after.time);
    where.clauses.push(`(time, request_id) < (${time}, ${where.bind('afterRequestId', after.requestId)})`);
  }
  return where.build();
}

/**
 * Collects a WHERE clause's conditions and binds their values (never spliced into the SQL, so its
 * text depends only on which conditions are present): the ledger's and the audit log's queries.
 */
export function createWhereBuilder(placeholder: Placeholder) {
  const clauses: string[] = [];
  const parameters: Record<string, string | number> = {};
  const values: Array<string | number> = [];
  const bind = (name: string, value: string | number) => {
    parameters[name] = value;
    values.push(value);
    return placeholder(name, values.length);
  };
  return {
    clauses,
    bind,
    /** `column = value` when the value is given. */
    equal(column: string, name: string, value: string | number | undefined) {
      if (value !== undefined) clauses.push(`${column} = ${bind(name, value)}`);
    },
    /** `time` from `from` (inclusive) to `to` (exclusive), each when given. */
    timeRange(from: number | undefined, to: number | undefined) {
      if (from !== undefined) clauses.push(`time >= ${bind('from', from)}`);
      if (to !== undefined) clauses.push(`time < ${bind('to', to)}`);
    },
    build(): UsageWhere {
      return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', parameters, values };
    },
  };
}
