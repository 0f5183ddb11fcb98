import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createChangeWatcher } from './create-change-watcher';
import { createRowCache } from './create-row-cache';

const directory = mkdtempSync(join(tmpdir(), 'signalbox-change-watcher-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('createChangeWatcher', () => {
  const connections: DatabaseSync[] = [];
  afterEach(() => connections.splice(0).forEach(connection => connection.close()));
  const openTwo = (name: string) => {
    const path = join(directory, name);
    const own = new DatabaseSync(path);
    own.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER)');
    const other = new DatabaseSync(path);
    connections.push(own, other);
    return { own, other };
  };

  it("resets on another connection's commit, at the first poll an interval after the last look, and not before", () => {
    const { own, other } = openTwo('other.sqlite');
    let clock = 0;
    const resets: number[] = [];
    const watcher = createChangeWatcher(own, { intervalMs: 1000, now: () => clock });
    watcher.onChange(() => resets.push(clock));

    other.exec('INSERT INTO t VALUES (1)');
    clock = 999;
    watcher.poll();
    expect(resets).toEqual([]);
    clock = 1000;
    watcher.poll();
    expect(resets).toEqual([1000]);
    clock = 2000;
    watcher.poll();
    expect(resets).toEqual([1000]);
  });

  it("never resets for the connection's own commits", () => {
    const { own } = openTwo('own.sqlite');
    let clock = 0;
    const reset = jest.fn();
    const watcher = createChangeWatcher(own, { intervalMs: 10, now: () => clock });
    watcher.onChange(reset);
    for (let value = 0; value < 5; value++) {
      own.exec(`INSERT INTO t VALUES (${value})`);
      clock += 10;
      watcher.poll();
    }
    expect(reset).not.toHaveBeenCalled();
  });

  it('empties a key cache on a change seen, and on clear', () => {
    const { own, other } = openTwo('keys.sqlite');
    let clock = 0;
    const cache = createRowCache(createChangeWatcher(own, { intervalMs: 1000, now: () => clock }));
    const row = { id: 'key_1', digest: 'd1' };
    cache.set('d1', row);
    expect(cache.get('d1')).toBe(row);
    cache.clear();
    expect(cache.get('d1')).toBeUndefined();

    cache.set('d1', row);
    other.exec('INSERT INTO t VALUES (1)');
    clock = 1000;
    expect(cache.get('d1')).toBeUndefined();
  });
});
