import { randomBytes } from 'node:crypto';
import { GatewayError, isJSONObject, type JSONObject, type Protocol } from '@signalbox/core';
import { createArrayFrameSink, createTestEngine, readFixture, type ScriptedAnswer, type TestEngine } from '../../testing';
import { COMPACTION_INSTRUCTION } from './build-summary-request';

// 1 and 2 micros per input and output token: the fixture answer (21 in, 7 out) costs 35 micros.
const pricing = { inputPerMillion: 1, outputPerMillion: 2 };
const SUMMARY = 'Grüße aus Oslo 🌍!';
const messagesAnswer = (): ScriptedAnswer => ({ body: readFixture('messages-answer.json') });
const responsesAnswer = (text = 'Noted.'): ScriptedAnswer => ({
  body: JSON.stringify({
    id: 'resp_upstream',
    object: 'response',
    status: 'completed',
    model: 'upstream-model',
    output: [{ type: 'message', id: 'msg_up', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
    usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
  }),
});

const conversation = [
  { role: 'user', content: 'Plan a trip to Oslo.' },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Let me check the weather.' }] },
  { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
  { type: 'function_call_output', call_id: 'call_1', output: 'Snow, -3 °C' },
  { role: 'user', content: [{ type: 'input_text', text: 'Then pack warm clothes.' }] },
];

async function compactionEngine(protocol: Protocol, answers: ScriptedAnswer[], conversationSecret = randomBytes(32).toString('hex')) {
  return createTestEngine({
    upstreams: { a: { protocol, answers } },
    routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'a', model: 'upstream-model' }], pricing }],
    conversationSecret,
  });
}

async function compact(test: TestEngine, body: JSONObject = { model: 'client-model', input: conversation }) {
  const exchange = await test.open('openai-responses');
  return exchange.compact(body, new AbortController().signal);
}

function compactionItemOf(compacted: JSONObject): JSONObject {
  const output = compacted.output as JSONObject[];
  return output.at(-1)!;
}

async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!GatewayError.isInstance(error)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe('remote compaction through the exchange', () => {
  it('answers the user messages verbatim and one sealed compaction item, written by the route’s model on a Messages upstream', async () => {
    const test = await compactionEngine('anthropic-messages', [messagesAnswer()]);
    const compacted = await compact(test);
    expect(compacted).toMatchObject({
      object: 'response.compaction',
      created_at: 1_767_225_600,
      usage: { input_tokens: 21, output_tokens: 7, total_tokens: 28 },
    });
    expect(compacted.id).toMatch(/^resp_/);
    const output = compacted.output as JSONObject[];
    expect(output).toHaveLength(3);
    expect(output[0]).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Plan a trip to Oslo.' }] });
    expect(output[1]).toMatchObject({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Then pack warm clothes.' }] });
    expect(output[2]).toEqual({ id: expect.stringMatching(/^cmp_/), type: 'compaction', encrypted_content: expect.stringMatching(/^sy1\./) });
    expect(JSON.stringify(output[2])).not.toContain('Oslo');
  });

  it('sends the upstream the fixed summarisation instruction and the conversation as one transcript, never the client’s items', async () => {
    const test = await compactionEngine('anthropic-messages', [messagesAnswer()]);
    await compact(test);
    expect(test.calls).toHaveLength(1);
    const sent = test.calls[0]!.body;
    expect(sent.system).toEqual([{ type: 'text', text: COMPACTION_INSTRUCTION }]);
    expect(sent.stream).toBeUndefined();
    expect(sent.tools).toBeUndefined();
    const messages = sent.messages as JSONObject[];
    expect(messages).toHaveLength(1);
    const transcript = JSON.stringify(messages[0]);
    for (const fragment of ['Plan a trip to Oslo.', 'get_weather', 'Snow, -3 °C', 'Then pack warm clothes.']) expect(transcript).toContain(fragment);
  });

  it('records and bills the compaction like a generation: one completed record at the upstream’s counts', async () => {
    const test = await compactionEngine('anthropic-messages', [messagesAnswer()]);
    await compact(test);
    const records = await test.recorded();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 200, outcome: 'completed', model: 'client-model', usage: { inputTokens: 21, outputTokens: 7 }, costMicros: 35 });
    expect(await test.account()).toMatchObject({ balanceMicros: test.openingBalanceMicros - 35, reservedMicros: 0 });
  });

  it('expands a compaction item into its summary for the upstream of a later generation, on the same-protocol path too', async () => {
    const test = await compactionEngine('openai-responses', [responsesAnswer(SUMMARY), responsesAnswer()]);
    const item = compactionItemOf(await compact(test));
    const exchange = await test.open('openai-responses');
    const input = [{ role: 'user', content: 'Plan a trip to Oslo.' }, item, { role: 'user', content: 'And the ferry times?' }];
    const output = await exchange.generate({ model: 'client-model', input }, new AbortController().signal);
    expect(output.kind).toBe('json');
    const sent = test.calls[1]!.body;
    expect(sent.input).toEqual([
      { role: 'user', content: 'Plan a trip to Oslo.' },
      { type: 'message', role: 'developer', content: `Summary of the earlier conversation: ${SUMMARY}` },
      { role: 'user', content: 'And the ferry times?' },
    ]);
  });

  it('sends a Responses upstream the gateway’s own summary request, not the client’s body', async () => {
    const test = await compactionEngine('openai-responses', [responsesAnswer(SUMMARY)]);
    await compact(test, { model: 'client-model', input: conversation, prompt_cache_key: 'session-1' });
    const sent = test.calls[0]!.body;
    expect(sent.instructions).toBe(COMPACTION_INSTRUCTION);
    expect(sent.model).toBe('upstream-model');
    expect(sent.prompt_cache_key).toBeUndefined();
    expect(Array.isArray(sent.input) && sent.input).toHaveLength(1);
  });

  it('refuses a compaction item of another account with a 400 naming the item, without calling the upstream', async () => {
    const test = await compactionEngine('anthropic-messages', [messagesAnswer(), messagesAnswer()]);
    const item = compactionItemOf(await compact(test));
    const other = await test.store.createAccount({ name: 'other', balanceMicros: 1_000_000 });
    const { secret } = await test.store.createKey({ accountId: other.id, name: 'other key' });
    const exchange = test.engine.openExchange({ protocol: 'openai-responses' });
    await exchange.authenticate({ authorization: `Bearer ${secret}` });
    const error = await refusalOf(exchange.generate({ model: 'client-model', input: [item, { role: 'user', content: 'Go on' }] }, new AbortController().signal));
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_REQUEST');
    expect(error.message).toContain('input.0.encrypted_content');
    expect(test.calls).toHaveLength(1);
    const records = await test.recorded(2);
    expect(records[1]).toMatchObject({ status: 400, outcome: 'error', errorCode: 'INVALID_REQUEST' });
  });

  it('refuses a compaction item sealed under another secret, and a tampered one, with a 400 naming the item', async () => {
    const writer = await compactionEngine('anthropic-messages', [messagesAnswer()]);
    const item = compactionItemOf(await compact(writer));
    const reader = await compactionEngine('anthropic-messages', []);
    const foreign = await refusalOf(
      (await reader.open('openai-responses')).generate({ model: 'client-model', input: [item] }, new AbortController().signal),
    );
    expect(foreign.status).toBe(400);
    expect(foreign.message).toContain('input.0.encrypted_content');
    const content = item.encrypted_content as string;
    // The second-to-last character always carries data bits; replaced by a different one, never by itself.
    const tampered = { ...item, encrypted_content: `${content.slice(0, -2)}${content.at(-2) === 'A' ? 'B' : 'A'}${content.at(-1)}` };
    expect(tampered.encrypted_content).not.toBe(content);
    const changed = await refusalOf(
      (await writer.open('openai-responses')).compact({ model: 'client-model', input: [{ role: 'user', content: 'hi' }, tampered] }, new AbortController().signal),
    );
    expect(changed.status).toBe(400);
    expect(changed.message).toContain('input.1.encrypted_content');
    expect(reader.calls).toHaveLength(0);
  });
});

describe('compaction_trigger in a generation', () => {
  it('answers a Response whose only output is a compaction of the items before the trigger', async () => {
    const test = await compactionEngine('openai-chat', [{ body: JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: 'upstream-model', choices: [{ index: 0, message: { role: 'assistant', content: SUMMARY }, finish_reason: 'stop' }], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }) }]);
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate({ model: 'client-model', input: [...conversation, { type: 'compaction_trigger' }] }, new AbortController().signal);
    if (output.kind !== 'json') throw new Error('expected JSON');
    expect(output.body).toMatchObject({ object: 'response', status: 'completed', model: 'client-model', usage: { input_tokens: 9, output_tokens: 4 } });
    const items = output.body.output as JSONObject[];
    expect(items).toEqual([{ id: expect.stringMatching(/^cmp_/), type: 'compaction', encrypted_content: expect.stringMatching(/^sy1\./) }]);
    expect(JSON.stringify(test.calls[0]!.body)).toContain('Then pack warm clothes.');
    expect((await test.recorded())[0]).toMatchObject({ status: 200, outcome: 'completed', costMicros: 9 + 8 });
  });

  it('streams the compaction item as the Responses events of one output item', async () => {
    const test = await compactionEngine('anthropic-messages', [messagesAnswer()]);
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate(
      { model: 'client-model', stream: true, input: [...conversation, { type: 'compaction_trigger' }] },
      new AbortController().signal,
    );
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink();
    await output.pipe(sink);
    const messages = sink.messages();
    expect(messages.map(message => message.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.output_item.done',
      'response.completed',
    ]);
    const completed = JSON.parse(messages[4]!.data) as JSONObject;
    expect(isJSONObject(completed.response) && completed.response.output).toEqual([
      { id: expect.stringMatching(/^cmp_/), type: 'compaction', encrypted_content: expect.stringMatching(/^sy1\./) },
    ]);
    expect(messages.map(message => (JSON.parse(message.data) as JSONObject).sequence_number)).toEqual([0, 1, 2, 3, 4]);
    expect(await test.recorded()).toHaveLength(1);
  });

  it('refuses a compaction_trigger that is not the final input item with a 400 naming it', async () => {
    const test = await compactionEngine('anthropic-messages', []);
    const exchange = await test.open('openai-responses');
    const error = await refusalOf(
      exchange.generate({ model: 'client-model', input: [{ type: 'compaction_trigger' }, { role: 'user', content: 'hi' }] }, new AbortController().signal),
    );
    expect(error.status).toBe(400);
    expect(error.message).toContain('input.0.type: a `compaction_trigger` item must be the final input item');
    expect(test.calls).toHaveLength(0);
  });
});
