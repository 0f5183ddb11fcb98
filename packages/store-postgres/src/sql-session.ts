import pg from 'pg';
import { parseSafeInteger } from './parse-safe-integer';

/** A row as the store reads it: BIGINT columns already numbers (see `parseSafeInteger`). */
export type Row = Record<string, unknown>;

/** A pool or one checked-out client: what a statement runs on. */
export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

/** Runs statements on one pool or client with the store's type parsing. */
export type SqlSession = {
  rows(text: string, values?: readonly unknown[]): Promise<Row[]>;
  /** The first row, or `undefined`. */
  row(text: string, values?: readonly unknown[]): Promise<Row | undefined>;
  /** How many rows the statement changed. */
  count(text: string, values?: readonly unknown[]): Promise<number>;
};

/** BIGINT (int8) as a safe number; every other type as `pg` parses it. */
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? parseSafeInteger : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * Wraps a pool or client. The type parsers go with each query, not with the pool, so a pool the
 * host passes in is used as it is and its other users keep their own parsing.
 */
export function createSqlSession(queryable: Queryable): SqlSession {
  const run = (text: string, values: readonly unknown[] = []) =>
    (queryable as pg.Pool).query<Row>({ text, values: [...values], types: TYPES });
  return {
    async rows(text, values) {
      return (await run(text, values)).rows;
    },
    async row(text, values) {
      return (await run(text, values)).rows[0];
    },
    async count(text, values) {
      return (await run(text, values)).rowCount ?? 0;
    },
  };
}
