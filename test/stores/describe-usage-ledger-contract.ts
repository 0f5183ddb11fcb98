import {
  DEFAULT_USAGE_RETENTION_DAYS,
  type AccountStore,
  type UsageCommit,
  type UsageEntry,
  type UsageFilter,
} from '@signalbox/accounts';
import { sampleUsageEntry } from '@signalbox/accounts/testing';
import { useSweepFakeTimers, type ContractContext } from './contract-context';

const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let sequence = 0;

/** A finished request's commit: a completed non-streamed chat request unless the test says otherwise. */
export function usageCommit(
  fields: Partial<UsageCommit['entry']> = {},
  money: { reservation?: UsageCommit['reservation']; costMicros?: number } = {},
): UsageCommit {
  return {
    entry: sampleUsageEntry({ requestId: `req_${String(++sequence).padStart(6, '0')}`, time: T0, protocol: 'openai-chat', ...fields }),
    ...(money.reservation && { reservation: money.reservation }),
    costMicros: money.costMicros ?? 0,
  };
}

/** Every row matching `filter`, newest first, read page by page with `limit`. */
async function readAllPages(store: AccountStore, filter: UsageFilter, limit: number): Promise<UsageEntry[]> {
  const entries: UsageEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listUsage(filter, { limit, ...(cursor !== undefined && { cursor }) });
    expect(page.entries.length).toBeLessThanOrEqual(limit);
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return entries;
}

/** Sum of the account's balance events (every page) minus the sum of its rows' costs. */
async function balanceFromLedger(store: AccountStore, accountId: string): Promise<number> {
  let events = 0;
  let cursor: string | undefined;
  do {
    const page = await store.listBalanceEvents(accountId, { limit: 2, ...(cursor !== undefined && { cursor }) });
    events += page.events.reduce((total, event) => total + event.deltaMicros, 0);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const rows = await readAllPages(store, { accountId }, 100);
  return events - rows.reduce((total, entry) => total + entry.costMicros, 0);
}

const requestIds = (entries: readonly UsageEntry[]) => entries.map(entry => entry.requestId);

/**
 * The usage ledger (`UsageLedger`): commits that settle their hold with their row, filters, keyset
 * paging, summaries with exact percentiles, retention, balance events, and the identity that ties
 * them together: balance = sum(balance events) − sum(row costs).
 */
export function describeUsageLedger(context: ContractContext): void {
  describe('usage ledger', () => {
    afterEach(() => {
      jest.useRealTimers();
    });

    describe('commits', () => {
      it('settles each hold as settle does and writes its row with the charge, in order', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'L', balanceMicros: 1_000 });
        const first = (await store.reserve(account.id, 300))!;
        const second = (await store.reserve(account.id, 100))!;
        const commits = [
          usageCommit({ accountId: account.id }, { reservation: first, costMicros: 120 }),
          // Costlier than its hold: charged the hold, the rest uncovered.
          usageCommit({ accountId: account.id }, { reservation: second, costMicros: 250 }),
          // A refusal held nothing and costs nothing.
          usageCommit({ accountId: account.id, status: 402, outcome: 'error', errorCode: 'INSUFFICIENT_BALANCE' }),
        ];
        expect(await store.commitUsage(commits)).toEqual([
          { chargedMicros: 120, uncoveredMicros: 0 },
          { chargedMicros: 100, uncoveredMicros: 150 },
          { chargedMicros: 0, uncoveredMicros: 0 },
        ]);
        expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 780, reservedMicros: 0 });
        const { entries } = await store.listUsage({ accountId: account.id }, { limit: 10 });
        const byId = new Map(entries.map(entry => [entry.requestId, entry]));
        expect(byId.get(commits[0]!.entry.requestId)).toEqual({ ...commits[0]!.entry, costMicros: 120, uncoveredMicros: 0 });
        expect(byId.get(commits[1]!.entry.requestId)).toEqual({ ...commits[1]!.entry, costMicros: 100, uncoveredMicros: 150 });
        expect(byId.get(commits[2]!.entry.requestId)).toEqual({ ...commits[2]!.entry, costMicros: 0, uncoveredMicros: 0 });
        // A settled hold cannot be settled again.
        expect(await store.settle(first, 1)).toBeUndefined();
      });

      it('keeps every field of a row, the optional ones included', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'L', balanceMicros: 1_000 });
        const reservation = (await store.reserve(account.id, 500))!;
        const commit = usageCommit(
          {
            accountId: account.id,
            upstreamRequestId: 'chatcmpl-upstream-1',
            keyId: 'key_full',
            keyPrefix: 'sbx-AbCdEfGh',
            model: 'claude-sonnet',
            upstream: 'anthropic',
            upstreamModel: 'claude-sonnet-4-5',
            upstreamCredential: 'team-b',
            upstreamKind: 'azure-openai',
            protocol: 'openai-responses',
            upstreamProtocol: 'anthropic-messages',
            stream: true,
            status: 200,
            outcome: 'incomplete',
            finishReason: 'length',
            inputTokens: 1_234,
            outputTokens: 567,
            cacheReadTokens: 89,
            cacheWriteTokens: 10,
            cacheWrite5mTokens: 4,
            cacheWrite1hTokens: 6,
            reasoningTokens: 42,
            estimated: true,
            // Negative: the cache writes cost more than the reads saved.
            cacheSavingsMicros: -17,
            latencyMs: 2_345,
            timeToFirstByteMs: 321,
            attempts: 2,
            warnings: ['temperature ignored', 'top_k dropped'],
            traceId: '0af7651916cd43dd8448eb211c80319c',
          },
          { reservation, costMicros: 432 },
        );
        await store.commitUsage([commit]);
        const { entries } = await store.listUsage({}, { limit: 5 });
        expect(entries).toEqual([{ ...commit.entry, costMicros: 432, uncoveredMicros: 0 }]);
      });

      it('charges a commit whose hold was already settled or released nothing, its whole cost uncovered, and still writes its row', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'L', balanceMicros: 1_000 });
        const reservation = (await store.reserve(account.id, 300))!;
        await store.settle(reservation, 50);
        const commit = usageCommit({ accountId: account.id }, { reservation, costMicros: 70 });
        expect(await store.commitUsage([commit])).toEqual([{ chargedMicros: 0, uncoveredMicros: 70 }]);
        expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 950, reservedMicros: 0 });
        const { entries } = await store.listUsage({}, { limit: 5 });
        expect(entries).toEqual([{ ...commit.entry, costMicros: 0, uncoveredMicros: 70 }]);
      });

      it('charges the commits of one batch against what each leaves of the balance, never below zero, after the balance was lowered under its holds', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'L', balanceMicros: 500 });
        const first = (await store.reserve(account.id, 300))!;
        const second = (await store.reserve(account.id, 200))!;
        await store.adjustBalance(account.id, -250);
        const commits = [
          usageCommit({ accountId: account.id }, { reservation: first, costMicros: 180 }),
          usageCommit({ accountId: account.id }, { reservation: second, costMicros: 150 }),
        ];
        expect(await store.commitUsage(commits)).toEqual([
          { chargedMicros: 180, uncoveredMicros: 0 },
          { chargedMicros: 70, uncoveredMicros: 80 },
        ]);
        expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 0, reservedMicros: 0 });
      });

      it('writes a request id once and charges it once, within a batch and across batches', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'L', balanceMicros: 1_000 });
        const first = (await store.reserve(account.id, 200))!;
        const again = (await store.reserve(account.id, 200))!;
        const later = (await store.reserve(account.id, 200))!;
        const original = usageCommit({ accountId: account.id, requestId: 'req_twice' }, { reservation: first, costMicros: 100 });
        const duplicate = usageCommit({ accountId: account.id, requestId: 'req_twice', status: 500 }, { reservation: again, costMicros: 100 });
        expect(await store.commitUsage([original, duplicate])).toEqual([
          { chargedMicros: 100, uncoveredMicros: 0 },
          { chargedMicros: 0, uncoveredMicros: 100 },
        ]);
        const retried = usageCommit({ accountId: account.id, requestId: 'req_twice' }, { reservation: later, costMicros: 100 });
        expect(await store.commitUsage([retried])).toEqual([{ chargedMicros: 0, uncoveredMicros: 100 }]);
        // One charge; the duplicates' holds are let go rather than left held.
        expect(await store.getAccount(account.id)).toMatchObject({ balanceMicros: 900, reservedMicros: 0 });
        const { entries } = await store.listUsage({}, { limit: 5 });
        expect(entries).toEqual([{ ...original.entry, costMicros: 100, uncoveredMicros: 0 }]);
      });

      it('commits an empty batch as nothing', async () => {
        expect(await context.store.commitUsage([])).toEqual([]);
        expect(await context.store.listUsage({}, { limit: 5 })).toEqual({ entries: [] });
      });
    });

    describe('queries', () => {
      /** Two accounts' rows with every filterable field varied, one minute apart. */
      async function seedVaried(store: AccountStore) {
        const [left, right] = [await store.createAccount({ name: 'A' }), await store.createAccount({ name: 'B' })];
        const commits = [
          usageCommit({ time: T0, accountId: left.id, keyId: 'key_a1', model: 'm-one', status: 200, outcome: 'completed', protocol: 'openai-chat' }),
          usageCommit({ time: T0 + MINUTE, accountId: left.id, keyId: 'key_a2', model: 'm-two', status: 200, outcome: 'completed', protocol: 'anthropic-messages' }),
          usageCommit({ time: T0 + 2 * MINUTE, accountId: left.id, keyId: 'key_a1', model: 'm-one', status: 502, outcome: 'error', protocol: 'openai-responses' }),
          usageCommit({ time: T0 + 3 * MINUTE, accountId: left.id, keyId: 'key_a1', model: 'm-two', status: 499, outcome: 'client-aborted', protocol: 'openai-chat' }),
          usageCommit({ time: T0 + 4 * MINUTE, accountId: right.id, keyId: 'key_b1', model: 'm-one', status: 200, outcome: 'completed', protocol: 'openai-chat' }),
          usageCommit({ time: T0 + 5 * MINUTE, accountId: right.id, keyId: 'key_b1', model: 'm-one', status: 402, outcome: 'error', protocol: 'openai-responses' }),
        ];
        await store.commitUsage(commits);
        return { left, right, ids: requestIds(commits.map(commit => ({ ...commit.entry, costMicros: 0, uncoveredMicros: 0 }))) };
      }

      it('returns rows newest first and applies every filter given', async () => {
        const { store } = context;
        const { left, right, ids } = await seedVaried(store);
        const list = async (filter: UsageFilter) => requestIds((await store.listUsage(filter, { limit: 50 })).entries);
        expect(await list({})).toEqual([...ids].reverse());
        expect(await list({ accountId: left.id })).toEqual([ids[3], ids[2], ids[1], ids[0]]);
        expect(await list({ accountId: right.id })).toEqual([ids[5], ids[4]]);
        expect(await list({ keyId: 'key_a1' })).toEqual([ids[3], ids[2], ids[0]]);
        expect(await list({ model: 'm-one' })).toEqual([ids[5], ids[4], ids[2], ids[0]]);
        expect(await list({ accountId: left.id, model: 'm-two' })).toEqual([ids[3], ids[1]]);
        expect(await list({ status: 200 })).toEqual([ids[4], ids[1], ids[0]]);
        expect(await list({ accountId: left.id, status: 502 })).toEqual([ids[2]]);
        expect(await list({ outcome: 'error' })).toEqual([ids[5], ids[2]]);
        expect(await list({ outcome: 'client-aborted' })).toEqual([ids[3]]);
        expect(await list({ protocol: 'openai-responses' })).toEqual([ids[5], ids[2]]);
        expect(await list({ accountId: 'acct_nobody' })).toEqual([]);
      });

      it('treats from as inclusive and to as exclusive', async () => {
        const { store } = context;
        const { ids } = await seedVaried(store);
        const list = async (filter: UsageFilter) => requestIds((await store.listUsage(filter, { limit: 50 })).entries);
        expect(await list({ from: T0 + MINUTE, to: T0 + 3 * MINUTE })).toEqual([ids[2], ids[1]]);
        expect(await list({ from: T0 + 5 * MINUTE })).toEqual([ids[5]]);
        expect(await list({ to: T0 + 1 })).toEqual([ids[0]]);
      });

      it('pages newest first with a cursor, without gaps or duplicates, also when rows share a time and new rows arrive', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'P' });
        // 23 rows over 6 distinct times, so pages end in the middle of a run of equal times.
        const commits = Array.from({ length: 23 }, (_, index) =>
          usageCommit({ accountId: account.id, time: T0 + Math.floor(index / 4) * 1000 }),
        );
        await store.commitUsage(commits);
        const expected = requestIds(
          commits
            .map(commit => ({ ...commit.entry, costMicros: 0, uncoveredMicros: 0 }))
            .sort((left, right) => right.time - left.time || (left.requestId < right.requestId ? 1 : -1)),
        );

        const first = await store.listUsage({ accountId: account.id }, { limit: 5 });
        expect(first.nextCursor).toEqual(expect.any(String));
        // A newer row arriving between pages shows up on a fresh first page, never inside the chain.
        await store.commitUsage([usageCommit({ accountId: account.id, time: T0 + 60_000 })]);
        const rest = [];
        let cursor = first.nextCursor;
        while (cursor !== undefined) {
          const page = await store.listUsage({ accountId: account.id }, { limit: 5, cursor });
          rest.push(...page.entries);
          cursor = page.nextCursor;
        }
        expect([...requestIds(first.entries), ...requestIds(rest)]).toEqual(expected);
        expect(await readAllPages(store, { accountId: account.id }, 23 + 1)).toHaveLength(24);
      });

      it('gives no next cursor on an exactly full last page', async () => {
        const { store } = context;
        await store.commitUsage(Array.from({ length: 4 }, (_, index) => usageCommit({ time: T0 + index })));
        const page = await store.listUsage({}, { limit: 4 });
        expect(page.entries).toHaveLength(4);
        expect(page.nextCursor).toBeUndefined();
      });

      it('refuses a cursor it did not make with a 400 INVALID_REQUEST naming cursor', async () => {
        for (const cursor of ['not-a-cursor', Buffer.from('[1,2]').toString('base64url'), '']) {
          await expect(context.store.listUsage({}, { limit: 5, cursor })).rejects.toMatchObject({
            status: 400,
            code: 'INVALID_REQUEST',
            message: expect.stringContaining('cursor'),
          });
        }
      });
    });

    describe('summaries', () => {
      it('totals each UTC bucket, oldest first, with cache tokens and savings, errors and exact p50/p95 latency', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'S', balanceMicros: 10_000 });
        // Twenty requests in the first hour with latencies 10..200 ms (every fifth one failed), one in the next.
        const commits = Array.from({ length: 20 }, (_, index) =>
          usageCommit({
            accountId: account.id,
            time: T0 + index * MINUTE,
            latencyMs: (20 - index) * 10,
            status: index % 5 === 4 ? 500 : 200,
            inputTokens: index,
            outputTokens: 2 * index,
            cacheReadTokens: index,
            cacheWriteTokens: 1,
            cacheWrite1hTokens: 1,
            cacheSavingsMicros: index - 5,
          }),
        );
        commits.push(usageCommit({ accountId: account.id, time: T0 + HOUR + 5, latencyMs: 7, status: 429 }));
        const holds = await Promise.all(commits.map(() => store.reserve(account.id, 100)));
        await store.commitUsage(commits.map((commit, index) => ({ ...commit, reservation: holds[index]!, costMicros: 10 + index })));

        expect(await store.summarizeUsage({ accountId: account.id }, { bucket: 'hour' })).toEqual([
          {
            bucketStart: T0,
            requests: 20,
            inputTokens: 190,
            outputTokens: 380,
            cacheReadTokens: 190,
            cacheWriteTokens: 20,
            costMicros: 20 * 10 + 190,
            cacheSavingsMicros: 190 - 20 * 5,
            errors: 4,
            latencyP50Ms: 100,
            latencyP95Ms: 190,
          },
          {
            bucketStart: T0 + HOUR,
            requests: 1,
            inputTokens: 10,
            outputTokens: 5,
            cacheReadTokens: 0,
            cacheWriteTokens: 0,
            costMicros: 30,
            cacheSavingsMicros: 0,
            errors: 1,
            latencyP50Ms: 7,
            latencyP95Ms: 7,
          },
        ]);
        const days = await store.summarizeUsage({ accountId: account.id }, { bucket: 'day' });
        expect(days).toEqual([expect.objectContaining({ bucketStart: T0, requests: 21, errors: 5, latencyP50Ms: 100, latencyP95Ms: 190 })]);
        const minutes = await store.summarizeUsage({ accountId: account.id, to: T0 + 2 * MINUTE }, { bucket: 'minute' });
        expect(minutes.map(row => [row.bucketStart, row.requests, row.latencyP50Ms])).toEqual([
          [T0, 1, 200],
          [T0 + MINUTE, 1, 190],
        ]);
      });

      it('splits each bucket by the group asked for, rows without that value in a group of their own', async () => {
        const { store } = context;
        await store.commitUsage([
          usageCommit({ time: T0, model: 'm-one', status: 200, upstream: 'openai', latencyMs: 30 }),
          usageCommit({ time: T0 + 1, model: 'm-one', status: 502, upstream: 'openai', latencyMs: 10 }),
          usageCommit({ time: T0 + 2, model: 'm-two', status: 200, upstream: 'anthropic', latencyMs: 20 }),
          usageCommit({ time: T0 + 3, status: 400, latencyMs: 1 }),
          usageCommit({ time: T0 + DAY, model: 'm-two', status: 200, upstream: 'anthropic', latencyMs: 40 }),
        ]);
        const byModel = await store.summarizeUsage({}, { bucket: 'day', groupBy: 'model' });
        expect(byModel.map(row => [row.bucketStart, row.group, row.requests, row.errors, row.latencyP50Ms, row.latencyP95Ms])).toEqual([
          [T0, undefined, 1, 1, 1, 1],
          [T0, 'm-one', 2, 1, 10, 30],
          [T0, 'm-two', 1, 0, 20, 20],
          [T0 + DAY, 'm-two', 1, 0, 40, 40],
        ]);
        expect(byModel[0]).not.toHaveProperty('group');
        const byStatus = await store.summarizeUsage({ to: T0 + DAY }, { bucket: 'day', groupBy: 'status' });
        expect(byStatus.map(row => [row.group, row.requests])).toEqual([
          ['200', 2],
          ['400', 1],
          ['502', 1],
        ]);
        const byUpstream = await store.summarizeUsage({ model: 'm-two' }, { bucket: 'hour', groupBy: 'upstream' });
        expect(byUpstream.map(row => [row.bucketStart, row.group, row.requests])).toEqual([
          [T0, 'anthropic', 1],
          [T0 + DAY, 'anthropic', 1],
        ]);
        expect(await store.summarizeUsage({ accountId: 'acct_nobody' }, { bucket: 'hour' })).toEqual([]);
      });
    });

    describe('retention', () => {
      it('deletes the rows before a time and keeps the rest', async () => {
        const { store } = context;
        await store.commitUsage([usageCommit({ time: T0 - 1 }), usageCommit({ time: T0 - 1 }), usageCommit({ time: T0 })]);
        expect(await store.deleteUsageBefore(T0)).toBe(2);
        expect((await store.listUsage({}, { limit: 5 })).entries.map(entry => entry.time)).toEqual([T0]);
        expect(await store.deleteUsageBefore(T0)).toBe(0);
      });

      it(`deletes rows older than the retention (default ${DEFAULT_USAGE_RETENTION_DAYS} days) on its sweep timer`, async () => {
        useSweepFakeTimers(T0);
        let clock = T0;
        const store = await context.createStore({ now: () => clock, holdSweepIntervalMs: 10_000 });
        await store.commitUsage([usageCommit({ time: T0, requestId: 'req_old' }), usageCommit({ time: T0 + DAY, requestId: 'req_kept' })]);
        clock = T0 + DEFAULT_USAGE_RETENTION_DAYS * DAY + 1;
        await jest.advanceTimersByTimeAsync(10_000);
        expect(requestIds((await store.listUsage({}, { limit: 5 })).entries)).toEqual(['req_kept']);
        await store.close();
      });

      it('honours a shorter retention given in days', async () => {
        useSweepFakeTimers(T0);
        let clock = T0;
        const store = await context.createStore({ now: () => clock, holdSweepIntervalMs: 10_000, usageRetentionDays: 7 });
        await store.commitUsage([usageCommit({ time: T0, requestId: 'req_week_old' }), usageCommit({ time: T0 + 2 * DAY, requestId: 'req_recent' })]);
        clock = T0 + 7 * DAY + 1;
        await jest.advanceTimersByTimeAsync(10_000);
        expect(requestIds((await store.listUsage({}, { limit: 5 })).entries)).toEqual(['req_recent']);
        await store.close();
      });
    });

    describe('balance events', () => {
      it('records the opening balance, top-ups and adjustments, newest first, and nothing for a zero change', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'E', balanceMicros: 5_000 });
        await store.adjustBalance(account.id, 2_500);
        await store.adjustBalance(account.id, 0);
        await store.adjustBalance(account.id, -1_000);
        const other = await store.createAccount({ name: 'other' });
        const { events, nextCursor } = await store.listBalanceEvents(account.id, { limit: 10 });
        expect(nextCursor).toBeUndefined();
        expect(events.map(({ kind, deltaMicros, balanceAfterMicros, accountId }) => ({ kind, deltaMicros, balanceAfterMicros, accountId }))).toEqual([
          { kind: 'adjustment', deltaMicros: -1_000, balanceAfterMicros: 6_500, accountId: account.id },
          { kind: 'top-up', deltaMicros: 2_500, balanceAfterMicros: 7_500, accountId: account.id },
          { kind: 'opening', deltaMicros: 5_000, balanceAfterMicros: 5_000, accountId: account.id },
        ]);
        expect(new Set(events.map(event => event.id)).size).toBe(3);
        expect(events.every(event => typeof event.time === 'number')).toBe(true);
        expect((await store.listBalanceEvents(other.id, { limit: 10 })).events).toEqual([
          expect.objectContaining({ kind: 'opening', deltaMicros: 0, balanceAfterMicros: 0 }),
        ]);
        expect(await store.listBalanceEvents('acct_nobody', { limit: 10 })).toEqual({ events: [] });
      });

      it('pages balance events with a cursor, without gaps or duplicates', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'E', balanceMicros: 1 });
        for (let top = 1; top <= 6; top++) await store.adjustBalance(account.id, top);
        const pages = [];
        let cursor: string | undefined;
        do {
          const page = await store.listBalanceEvents(account.id, { limit: 3, ...(cursor !== undefined && { cursor }) });
          pages.push(page.events.map(event => event.deltaMicros));
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        expect(pages).toEqual([
          [6, 5, 4],
          [3, 2, 1],
          [1],
        ]);
        await expect(store.listBalanceEvents(account.id, { limit: 3, cursor: 'bogus!' })).rejects.toMatchObject({ status: 400 });
      });

      it('keeps balance = sum(balance events) − sum(row costs) through concurrent commits, settles, top-ups and refusals', async () => {
        const { store } = context;
        const account = await store.createAccount({ name: 'I', balanceMicros: 3_000 });
        const work = Array.from({ length: 60 }, async (_, index) => {
          if (index % 10 === 0) return store.adjustBalance(account.id, 500);
          const reservation = await store.reserve(account.id, 150);
          const cost = (index * 37) % 200; // sometimes above the hold
          if (!reservation) return store.commitUsage([usageCommit({ accountId: account.id, status: 402, outcome: 'error' })]);
          return store.commitUsage([usageCommit({ accountId: account.id }, { reservation, costMicros: cost })]);
        });
        await Promise.all(work);
        const after = (await store.getAccount(account.id))!;
        expect(after.reservedMicros).toBe(0);
        expect(after.balanceMicros).toBeGreaterThanOrEqual(0);
        expect(await balanceFromLedger(store, account.id)).toBe(after.balanceMicros);
        expect((await readAllPages(store, { accountId: account.id }, 7)).length).toBe(54);
      });
    });
  });
}
