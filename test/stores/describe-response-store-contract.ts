import { storedResponseBytes, type AccountStore, type StoredResponse } from '@signalbox/accounts';
import { useSweepFakeTimers, type ContractContext } from './contract-context';

const T0 = 1_767_225_600_000;
const HOUR = 60 * 60 * 1000;
/** A cap no test reaches unless it means to. */
const ROOMY = { maxBytesPerAccount: 64 * 1024 * 1024 };

/**
 * A stored response of `accountId` made at `createdAt`: one user message in, one assistant message
 * out, with item ids derived from the response id unless the test names its own.
 */
export function storedResponse(
  accountId: string,
  id: string,
  fields: Partial<Omit<StoredResponse, 'id' | 'accountId'>> & { inputIds?: string[]; outputIds?: string[] } = {},
): StoredResponse {
  const { inputIds = [`msg_in_${id}`], outputIds = [`msg_out_${id}`], ...rest } = fields;
  return {
    id,
    accountId,
    keyId: 'key_contract',
    createdAt: T0,
    expiresAt: T0 + HOUR,
    inputItems: inputIds.map(itemId => ({
      id: itemId,
      item: { id: itemId, type: 'message', role: 'user', content: [{ type: 'input_text', text: `asked in ${id}` }] },
    })),
    response: {
      id,
      object: 'response',
      status: 'completed',
      output: outputIds.map(itemId => ({
        id: itemId,
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: `answered in ${id}`, annotations: [] }],
      })),
    },
    ...rest,
  };
}

/** What `findItems` gives back for an item saved as `item`: a copy of it and the UTF-8 size of its JSON. */
export function foundItem(item: unknown) {
  return { item, bytes: Buffer.byteLength(JSON.stringify(item)) };
}

/** Two accounts of the store under test. */
async function twoAccounts(store: AccountStore): Promise<[string, string]> {
  const first = await store.createAccount({ name: 'Conversations A' });
  const second = await store.createAccount({ name: 'Conversations B' });
  return [first.id, second.id];
}

/**
 * Stored conversations (`ResponseStore`): owned by one account, gone at their expiry, items found
 * across responses with the newest copy winning and their stored size, the per-account size cap evicting oldest first,
 * and copies in and out.
 */
export function describeResponseStore(context: ContractContext): void {
  describe('stored responses', () => {
    afterEach(() => {
      jest.useRealTimers();
    });

    it('gives back a saved response as it was saved, with or without the response it continued', async () => {
      const [account] = await twoAccounts(context.store);
      const first = storedResponse(account, 'resp_first');
      const second = storedResponse(account, 'resp_second', { previousResponseId: 'resp_first', createdAt: T0 + 1, conversationKey: 'k3yOfTheConversation_A' });
      await context.store.saveResponse(first, ROOMY);
      await context.store.saveResponse(second, ROOMY);
      expect(await context.store.getResponse(account, 'resp_first', T0)).toEqual(first);
      expect(await context.store.getResponse(account, 'resp_first', T0)).not.toHaveProperty('previousResponseId');
      expect(await context.store.getResponse(account, 'resp_first', T0)).not.toHaveProperty('conversationKey');
      expect(await context.store.getResponse(account, 'resp_second', T0)).toEqual(second);
      expect(await context.store.getResponse(account, 'resp_unknown', T0)).toBeUndefined();
    });

    it('answers a conversation continued right after its save: the response, its items, and the chain', async () => {
      const [account] = await twoAccounts(context.store);
      const first = storedResponse(account, 'resp_turn_1');
      await context.store.saveResponse(first, ROOMY);
      expect(await context.store.getResponse(account, 'resp_turn_1', T0)).toEqual(first);
      const second = storedResponse(account, 'resp_turn_2', { previousResponseId: 'resp_turn_1', createdAt: T0 + 1 });
      await context.store.saveResponse(second, ROOMY);
      expect(await context.store.getResponse(account, 'resp_turn_2', T0)).toEqual(second);
      expect(await context.store.getResponse(account, 'resp_turn_1', T0)).toEqual(first);
      expect(await context.store.findItems(account, ['msg_out_resp_turn_1', 'msg_in_resp_turn_2'], T0)).toEqual(
        new Map([
          ['msg_out_resp_turn_1', foundItem((first.response['output'] as unknown[])[0])],
          ['msg_in_resp_turn_2', foundItem(second.inputItems[0]!.item)],
        ]),
      );
    });

    it('replaces a response saved again under the same id and account', async () => {
      const [account] = await twoAccounts(context.store);
      await context.store.saveResponse(storedResponse(account, 'resp_again', { outputIds: ['msg_old'] }), ROOMY);
      const replacement = storedResponse(account, 'resp_again', { outputIds: ['msg_new'], keyId: 'key_other' });
      await context.store.saveResponse(replacement, ROOMY);
      expect(await context.store.getResponse(account, 'resp_again', T0)).toEqual(replacement);
      const found = await context.store.findItems(account, ['msg_old', 'msg_new'], T0);
      expect([...found.keys()]).toEqual(['msg_new']);
    });

    it('keeps its own copies: changing what was saved or what came back never changes the store', async () => {
      const [account] = await twoAccounts(context.store);
      const record = storedResponse(account, 'resp_copy');
      const pristine = structuredClone(record);
      await context.store.saveResponse(record, ROOMY);
      (record.response['output'] as Array<Record<string, unknown>>)[0]!['role'] = 'mutated';
      (record.inputItems[0]!.item as Record<string, unknown>)['role'] = 'mutated';
      record.expiresAt = T0;

      const fetched = (await context.store.getResponse(account, 'resp_copy', T0))!;
      fetched.response['status'] = 'mutated';
      (fetched.inputItems as unknown[]).push({ id: 'extra', item: {} });
      const found = await context.store.findItems(account, ['msg_in_resp_copy', 'msg_out_resp_copy'], T0);
      found.get('msg_in_resp_copy')!.item['role'] = 'mutated';
      found.get('msg_out_resp_copy')!.item['content'] = [];

      expect(await context.store.getResponse(account, 'resp_copy', T0)).toEqual(pristine);
      expect(await context.store.findItems(account, ['msg_in_resp_copy', 'msg_out_resp_copy'], T0)).toEqual(
        new Map([
          ['msg_in_resp_copy', foundItem(pristine.inputItems[0]!.item)],
          ['msg_out_resp_copy', foundItem((pristine.response['output'] as unknown[])[0])],
        ]),
      );
    });

    it("answers another account's response id as unknown: not read, not deleted, not replaced, its items not found", async () => {
      const [owner, stranger] = await twoAccounts(context.store);
      const record = storedResponse(owner, 'resp_owned');
      await context.store.saveResponse(record, ROOMY);
      expect(await context.store.getResponse(stranger, 'resp_owned', T0)).toBeUndefined();
      expect(await context.store.deleteResponse(stranger, 'resp_owned')).toBe(false);
      expect(await context.store.findItems(stranger, ['msg_in_resp_owned', 'msg_out_resp_owned'], T0)).toEqual(
        new Map(),
      );

      // The same id saved by the other account is the other account's own response.
      const theirs = storedResponse(stranger, 'resp_owned', { outputIds: ['msg_theirs'] });
      await context.store.saveResponse(theirs, ROOMY);
      expect(await context.store.getResponse(owner, 'resp_owned', T0)).toEqual(record);
      expect(await context.store.getResponse(stranger, 'resp_owned', T0)).toEqual(theirs);
      expect([...(await context.store.findItems(owner, ['msg_theirs', 'msg_out_resp_owned'], T0)).keys()]).toEqual([
        'msg_out_resp_owned',
      ]);
    });

    it('treats a response as gone from exactly its expiresAt, for reads and item lookups', async () => {
      const [account] = await twoAccounts(context.store);
      const record = storedResponse(account, 'resp_expiring', { expiresAt: T0 + 5_000 });
      await context.store.saveResponse(record, ROOMY);
      expect(await context.store.getResponse(account, 'resp_expiring', T0 + 4_999)).toEqual(record);
      expect((await context.store.findItems(account, ['msg_out_resp_expiring'], T0 + 4_999)).size).toBe(1);
      expect(await context.store.getResponse(account, 'resp_expiring', T0 + 5_000)).toBeUndefined();
      expect(await context.store.findItems(account, ['msg_out_resp_expiring'], T0 + 5_000)).toEqual(new Map());
    });

    it('deletes a response once: true, then false; its items are no longer found', async () => {
      const [account] = await twoAccounts(context.store);
      await context.store.saveResponse(storedResponse(account, 'resp_deleted'), ROOMY);
      await context.store.saveResponse(storedResponse(account, 'resp_kept', { createdAt: T0 + 1 }), ROOMY);
      expect(await context.store.deleteResponse(account, 'resp_deleted')).toBe(true);
      expect(await context.store.deleteResponse(account, 'resp_deleted')).toBe(false);
      expect(await context.store.getResponse(account, 'resp_deleted', T0)).toBeUndefined();
      const found = await context.store.findItems(account, ['msg_in_resp_deleted', 'msg_out_resp_kept'], T0);
      expect([...found.keys()]).toEqual(['msg_out_resp_kept']);
    });

    it('finds input and output items across responses by id, the newest copy winning and unknown ids absent', async () => {
      const [account] = await twoAccounts(context.store);
      // The second turn carries the first turn's answer again as input (a resolved item_reference).
      const older = storedResponse(account, 'resp_older', { inputIds: ['msg_question'], outputIds: ['msg_answer'] });
      const newer = storedResponse(account, 'resp_newer', {
        createdAt: T0 + 1_000,
        inputIds: ['msg_answer', 'msg_follow_up'],
        outputIds: ['fc_call'],
      });
      await context.store.saveResponse(older, ROOMY);
      await context.store.saveResponse(newer, ROOMY);
      const found = await context.store.findItems(
        account,
        ['msg_question', 'msg_answer', 'fc_call', 'msg_follow_up', 'msg_unknown', 'msg_answer'],
        T0,
      );
      expect(new Set(found.keys())).toEqual(new Set(['msg_question', 'msg_answer', 'fc_call', 'msg_follow_up']));
      expect(found.get('msg_question')).toEqual(foundItem(older.inputItems[0]!.item));
      expect(found.get('msg_answer')).toEqual(foundItem(newer.inputItems[0]!.item));
      expect(found.get('fc_call')).toEqual(foundItem((newer.response['output'] as unknown[])[0]));
      expect(await context.store.findItems(account, [], T0)).toEqual(new Map());

      // With the newer response expired, then deleted, the older copy is the one found.
      const olderAnswer = (older.response['output'] as unknown[])[0];
      await context.store.saveResponse({ ...newer, expiresAt: T0 + 10 }, ROOMY);
      expect((await context.store.findItems(account, ['msg_answer'], T0 + 10)).get('msg_answer')).toEqual(foundItem(olderAnswer));
      await context.store.deleteResponse(account, 'resp_newer');
      expect((await context.store.findItems(account, ['msg_answer'], T0)).get('msg_answer')).toEqual(foundItem(olderAnswer));
    });

    it('judges age by createdAt, not by the order of saves', async () => {
      const [account] = await twoAccounts(context.store);
      const made = storedResponse(account, 'resp_made_later', { createdAt: T0 + 1_000, outputIds: ['msg_shared'] });
      const late = storedResponse(account, 'resp_saved_later', { createdAt: T0, outputIds: ['msg_shared'] });
      await context.store.saveResponse(made, ROOMY);
      await context.store.saveResponse(late, ROOMY);
      const found = await context.store.findItems(account, ['msg_shared'], T0);
      expect(found.get('msg_shared')!.item['content']).toEqual([
        { type: 'output_text', text: 'answered in resp_made_later', annotations: [] },
      ]);
    });

    it("evicts the account's oldest responses once over the cap, never the one just saved nor another account's", async () => {
      const [account, neighbour] = await twoAccounts(context.store);
      const responses = [0, 1, 2, 3].map(turn => storedResponse(account, `resp_turn_${turn}`, { createdAt: T0 + turn }));
      const size = storedResponseBytes(responses[0]!);
      expect(responses.every(record => storedResponseBytes(record) === size)).toBe(true);
      const neighbours = storedResponse(neighbour, 'resp_neighbour');
      await context.store.saveResponse(neighbours, ROOMY);

      // Room for exactly three: saving the fourth evicts only the first.
      const cap = { maxBytesPerAccount: size * 3 };
      for (const record of responses) await context.store.saveResponse(record, cap);
      const kept = async () => {
        const present = await Promise.all(
          responses.map(async record => (await context.store.getResponse(account, record.id, T0)) !== undefined),
        );
        return responses.filter((_, index) => present[index]).map(record => record.id);
      };
      expect(await kept()).toEqual(['resp_turn_1', 'resp_turn_2', 'resp_turn_3']);
      expect((await context.store.findItems(account, ['msg_out_resp_turn_0'], T0)).size).toBe(0);

      // One response larger than the cap is kept alone; everything older of the account goes.
      const large = storedResponse(account, 'resp_large', { createdAt: T0 + 10, inputIds: ['a', 'b', 'c', 'd'] });
      await context.store.saveResponse(large, { maxBytesPerAccount: size });
      expect(await kept()).toEqual([]);
      expect(await context.store.getResponse(account, 'resp_large', T0)).toEqual(large);
      expect(await context.store.getResponse(neighbour, 'resp_neighbour', T0)).toEqual(neighbours);
    });

    it('keeps the one just saved even when it is the oldest of the account', async () => {
      const [account] = await twoAccounts(context.store);
      const newest = storedResponse(account, 'resp_newest', { createdAt: T0 + 1_000 });
      const backdated = storedResponse(account, 'resp_backdated', { createdAt: T0 });
      const cap = { maxBytesPerAccount: storedResponseBytes(newest) };
      await context.store.saveResponse(newest, cap);
      await context.store.saveResponse(backdated, cap);
      expect(await context.store.getResponse(account, 'resp_backdated', T0)).toEqual(backdated);
      expect(await context.store.getResponse(account, 'resp_newest', T0)).toBeUndefined();
    });

    it('deletes every response expired at now and says how many', async () => {
      const [account, other] = await twoAccounts(context.store);
      await context.store.saveResponse(storedResponse(account, 'resp_a', { expiresAt: T0 + 100 }), ROOMY);
      await context.store.saveResponse(storedResponse(other, 'resp_b', { expiresAt: T0 + 200 }), ROOMY);
      await context.store.saveResponse(storedResponse(account, 'resp_c', { expiresAt: T0 + 201 }), ROOMY);
      expect(await context.store.deleteExpiredResponses(T0 + 99)).toBe(0);
      expect(await context.store.deleteExpiredResponses(T0 + 200)).toBe(2);
      expect(await context.store.deleteExpiredResponses(T0 + 200)).toBe(0);
      // Read at an earlier time: what is gone was deleted, not merely hidden by its expiry.
      expect(await context.store.getResponse(account, 'resp_a', T0)).toBeUndefined();
      expect(await context.store.getResponse(other, 'resp_b', T0)).toBeUndefined();
      expect(await context.store.findItems(account, ['msg_out_resp_a'], T0)).toEqual(new Map());
      expect(await context.store.getResponse(account, 'resp_c', T0)).toMatchObject({ id: 'resp_c' });
    });

    it('deletes expired responses on its sweep timer while open, and stops at close', async () => {
      useSweepFakeTimers(T0);
      let clock = T0;
      const store = await context.createStore({ now: () => clock, holdSweepIntervalMs: 10_000 });
      const [account] = await twoAccounts(store);
      await store.saveResponse(storedResponse(account, 'resp_swept', { expiresAt: T0 + 15_000 }), ROOMY);
      clock = T0 + 10_000;
      await jest.advanceTimersByTimeAsync(10_000);
      expect(await store.getResponse(account, 'resp_swept', T0)).toMatchObject({ id: 'resp_swept' });
      clock = T0 + 20_000;
      await jest.advanceTimersByTimeAsync(10_000);
      expect(await store.getResponse(account, 'resp_swept', T0)).toBeUndefined();
      await store.close();
      expect(jest.getTimerCount()).toBe(0);
    });
  });
}
