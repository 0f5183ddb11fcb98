import { randomBytes } from 'node:crypto';
import { storedResponseBytes, type StoredResponse } from '@signalbox/accounts';
import { GatewayError, type JSONObject } from '@signalbox/core';
import { createTestEngine, readFixture, TEST_NOW, type ScriptedAnswer, type TestEngine } from '../testing';
import { createCompactionSealer } from './compaction/create-compaction-sealer';

const LIMIT = 64 * 1024;
const never = new AbortController().signal;

/** A Messages upstream's answer: the route's upstream for every test here. */
const messagesAnswer = (): ScriptedAnswer => ({ body: readFixture('messages-answer.json') });

async function budgetEngine(conversationSecret?: string): Promise<TestEngine> {
  return createTestEngine({
    upstreams: { u: { protocol: 'anthropic-messages', answers: [messagesAnswer(), messagesAnswer()] } },
    routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'u', model: 'upstream-model' }] }],
    responseStore: { maxExpansionBytes: LIMIT },
    ...(conversationSecret !== undefined && { conversationSecret }),
  });
}

/** Saves a response of the test account holding one input item `itemId` with `text`; returns the record. */
async function saveItem(test: TestEngine, id: string, itemId: string, text: string, previousResponseId?: string): Promise<StoredResponse> {
  const item = { id: itemId, type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
  const record: StoredResponse = {
    id,
    accountId: test.accountId,
    keyId: test.keyId,
    createdAt: TEST_NOW,
    expiresAt: TEST_NOW + 60_000,
    ...(previousResponseId !== undefined && { previousResponseId }),
    inputItems: [{ id: itemId, item }],
    response: { id, object: 'response', status: 'completed', output: [] },
  };
  await test.store.saveResponse(record, { maxBytesPerAccount: 64 * 1024 * 1024 });
  return record;
}

const itemBytes = (record: StoredResponse) => Buffer.byteLength(JSON.stringify(record.inputItems[0]!.item));
const references = (id: string, times: number) => Array.from({ length: times }, () => ({ type: 'item_reference', id }));

async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!GatewayError.isInstance(error)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

async function generate(test: TestEngine, body: JSONObject) {
  return (await test.open('openai-responses')).generate(body, never);
}

function expectExpansionRefusal(error: GatewayError, param: string) {
  expect([error.status, error.code, error.param]).toEqual([413, 'REQUEST_TOO_LARGE', param]);
  expect(error.message).toContain(`more than ${LIMIT} bytes`);
  expect(error.message).toMatch(/Reference fewer items, compact the conversation, or start a new one/);
}

describe('the expansion budget (responseStore.maxExpansionBytes)', () => {
  it('counts an item reference each time it appears: within the budget the upstream gets every copy, past it a 413 and no upstream call', async () => {
    const test = await budgetEngine();
    const record = await saveItem(test, 'resp_big', 'msg_big', 'a'.repeat(10_000));
    const fits = Math.floor(LIMIT / itemBytes(record));
    expect(fits).toBe(6);

    const answered = await generate(test, { model: 'client-model', input: references('msg_big', fits) });
    expect(answered.kind).toBe('json');
    expect(JSON.stringify(test.calls[0]!.body).split('a'.repeat(10_000))).toHaveLength(fits + 1);

    const refused = await refusalOf(generate(test, { model: 'client-model', input: [...references('msg_big', fits + 1), { role: 'user', content: 'Describe them.' }] }));
    expectExpansionRefusal(refused, 'input');
    expect(test.calls).toHaveLength(1);
    expect((await test.recorded(2))[1]).toMatchObject({ status: 413, outcome: 'error', errorCode: 'REQUEST_TOO_LARGE' });
  });

  it('refuses the amplification of a small request on the compaction endpoint before the summary is asked for', async () => {
    const test = await budgetEngine();
    await saveItem(test, 'resp_big', 'msg_big', 'a'.repeat(10_000));
    const exchange = await test.open('openai-responses');
    const refused = await refusalOf(exchange.compact({ model: 'client-model', input: references('msg_big', 600) }, never));
    expectExpansionRefusal(refused, 'input');
    expect(test.calls).toHaveLength(0);
  });

  it('shares one budget between the previous_response_id chain and the references', async () => {
    const test = await budgetEngine();
    const first = await saveItem(test, 'resp_first', 'msg_first', 'b'.repeat(20_000));
    const second = await saveItem(test, 'resp_second', 'msg_second', 'c'.repeat(20_000), 'resp_first');
    const item = await saveItem(test, 'resp_item', 'msg_item', 'd'.repeat(10_000));
    const chainBytes = storedResponseBytes(first) + storedResponseBytes(second);
    expect(chainBytes + 2 * itemBytes(item)).toBeLessThan(LIMIT);
    expect(chainBytes + 3 * itemBytes(item)).toBeGreaterThan(LIMIT);

    const body = (times: number) => ({ model: 'client-model', previous_response_id: 'resp_second', input: references('msg_item', times) });
    expect((await generate(test, body(2))).kind).toBe('json');
    const refused = await refusalOf(generate(test, body(3)));
    expect([refused.status, refused.code]).toEqual([413, 'REQUEST_TOO_LARGE']);
    expect(test.calls).toHaveLength(1);
  });

  it('refuses a chain larger than the budget naming previous_response_id', async () => {
    const test = await budgetEngine();
    await saveItem(test, 'resp_1', 'msg_1', 'e'.repeat(40_000));
    await saveItem(test, 'resp_2', 'msg_2', 'f'.repeat(40_000), 'resp_1');
    const refused = await refusalOf(generate(test, { model: 'client-model', previous_response_id: 'resp_2', input: 'Go on.' }));
    expectExpansionRefusal(refused, 'previous_response_id');
    expect(test.calls).toHaveLength(0);
  });

  it('counts the summaries of compaction items as they are opened', async () => {
    const secret = randomBytes(32).toString('hex');
    const test = await budgetEngine(secret);
    const sealer = createCompactionSealer(secret);
    const item = { type: 'compaction', encrypted_content: sealer.seal('g'.repeat(20_000), test.accountId) };
    expect((await generate(test, { model: 'client-model', input: [item, item, item] })).kind).toBe('json');
    const refused = await refusalOf(generate(test, { model: 'client-model', input: [item, item, item, item] }));
    expectExpansionRefusal(refused, 'input');
    expect(test.calls).toHaveLength(1);
  });
});
