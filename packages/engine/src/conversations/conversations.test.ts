import { GatewayError, type JSONObject, type Protocol } from '@signalbox/core';
import { createArrayFrameSink, createTestEngine, readFixture, TEST_NOW, type ScriptedAnswer, type TestEngine } from '../testing';

const DAY_MS = 24 * 60 * 60 * 1000;
const never = new AbortController().signal;

/** A Responses upstream's JSON answer: one message with `text`, under the upstream's own response id. */
function responsesAnswer(id: string, text: string): ScriptedAnswer {
  return {
    body: JSON.stringify({
      id,
      object: 'response',
      created_at: 1_767_225_600,
      status: 'completed',
      model: 'gpt-upstream',
      output: [{ id: `msg_${id}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
      usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
    }),
  };
}

/** A Responses upstream's stream ending in `response.completed`, under the upstream's own response id. */
function responsesStream(id: string, text: string): ScriptedAnswer {
  const response = { id, object: 'response', created_at: 1_767_225_600, model: 'gpt-upstream' };
  const item = { id: `msg_${id}`, type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  const events = [
    { type: 'response.created', sequence_number: 0, response: { ...response, status: 'in_progress', output: [] } },
    { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
    { type: 'response.output_text.delta', sequence_number: 2, output_index: 0, content_index: 0, item_id: item.id, delta: text },
    { type: 'response.output_item.done', sequence_number: 3, output_index: 0, item },
    {
      type: 'response.completed',
      sequence_number: 4,
      response: { ...response, status: 'completed', output: [item], usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 } },
    },
  ];
  return { body: events.map(event => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('') };
}

const ANSWERS: Record<string, (index: number) => ScriptedAnswer> = {
  'anthropic-messages': () => ({ body: readFixture('messages-answer.json') }),
  'openai-chat': index => ({
    body: JSON.stringify({
      id: `chatcmpl-${index}`,
      object: 'chat.completion',
      created: 1_767_225_600,
      model: 'gpt-upstream',
      choices: [{ index: 0, message: { role: 'assistant', content: `answer ${index}` }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    }),
  }),
  'openai-responses': index => responsesAnswer(`resp_upstream${index}`, `answer ${index}`),
};

/** The `index`th scripted answer of an upstream of `protocol`. */
function answerOf(protocol: Protocol, index: number): ScriptedAnswer {
  return ANSWERS[protocol]!(index);
}

async function conversationEngine(protocol: Protocol, answers: readonly ScriptedAnswer[], extra: Partial<Parameters<typeof createTestEngine>[0]> = {}) {
  return createTestEngine({
    upstreams: { u: { protocol, answers } },
    routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'u', model: 'upstream-model' }] }],
    ...extra,
  });
}

async function ask(test: TestEngine, body: JSONObject): Promise<JSONObject> {
  const exchange = await test.open('openai-responses');
  const output = await exchange.generate(body, never);
  if (output.kind !== 'json') throw new Error('expected a JSON answer');
  return output.body;
}

async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  if (!GatewayError.isInstance(error)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

/** The texts of an upstream body's turns, whatever its protocol: `role: text` per message or item. */
function turnsOf(body: JSONObject): string[] {
  const turns = (body.messages ?? body.input) as JSONObject[];
  return turns.map(turn => {
    const content = turn.content;
    const text = typeof content === 'string' ? content : (content as JSONObject[]).map(part => String(part.text)).join('');
    return `${String(turn.role)}: ${text}`;
  });
}

describe.each<Protocol>(['anthropic-messages', 'openai-chat', 'openai-responses'])('previous_response_id on a %s upstream', protocol => {
  it('sends the whole stored conversation upstream, oldest turn first, and keeps each turn under the id its client got', async () => {
    const test = await conversationEngine(protocol, [answerOf(protocol, 1), answerOf(protocol, 2), answerOf(protocol, 3)]);
    const first = await ask(test, { model: 'client-model', input: 'Say hello' });
    const second = await ask(test, { model: 'client-model', input: 'Again', previous_response_id: first.id as string });
    const third = await ask(test, { model: 'client-model', input: [{ role: 'user', content: 'Once more' }], previous_response_id: second.id as string });
    const replies = [first, second].map(answer => ((answer.output as JSONObject[])[0]!.content as JSONObject[])[0]!.text);
    expect(turnsOf(test.calls[2]!.body).filter(turn => !turn.startsWith('system'))).toEqual([
      'user: Say hello',
      `assistant: ${String(replies[0])}`,
      'user: Again',
      `assistant: ${String(replies[1])}`,
      'user: Once more',
    ]);
    expect(test.calls[2]!.body).not.toHaveProperty('previous_response_id');
    const stored = await test.store.getResponse(test.accountId, third.id as string, TEST_NOW);
    expect(stored).toMatchObject({ id: third.id, accountId: test.accountId, keyId: test.keyId, previousResponseId: second.id, expiresAt: TEST_NOW + 30 * DAY_MS });
    expect(stored!.response).toEqual(third);
    expect(stored!.inputItems).toEqual([{ id: expect.stringMatching(/^msg_/), item: { id: expect.stringMatching(/^msg_/), type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Once more' }] } }]);
  });
});

describe('keeping responses', () => {
  it('keeps the upstream’s own response id on a same-protocol route and the gateway’s on a translated one', async () => {
    const same = await conversationEngine('openai-responses', [responsesAnswer('resp_fromUpstream', 'hi')]);
    expect((await ask(same, { model: 'client-model', input: 'Hi' })).id).toBe('resp_fromUpstream');
    expect(await same.store.getResponse(same.accountId, 'resp_fromUpstream', TEST_NOW)).toBeDefined();

    const translated = await conversationEngine('anthropic-messages', [answerOf('anthropic-messages', 1)]);
    const answer = await ask(translated, { model: 'client-model', input: 'Hi' });
    expect(answer.id).toMatch(/^resp_/);
    expect(answer.id).not.toBe('msg_01SyntheticEngineAnswer');
    expect((await translated.store.getResponse(translated.accountId, answer.id as string, TEST_NOW))?.response).toEqual(answer);
  });

  it.each<[string, Protocol, ScriptedAnswer]>([
    ['a translated stream', 'anthropic-messages', { body: readFixture('messages-text.sse'), chunkSize: 16 }],
    ['a same-protocol stream', 'openai-responses', responsesStream('resp_streamed', 'Hi there')],
  ])('keeps %s’s response.completed before the client can see that event', async (_name, protocol, answer) => {
    const test = await conversationEngine(protocol, [answer]);
    const exchange = await test.open('openai-responses');
    const output = await exchange.generate({ model: 'client-model', input: 'Say hello', stream: true }, never);
    if (output.kind !== 'stream') throw new Error('expected a stream');
    const sink = createArrayFrameSink();
    let storedWhenTerminalWritten: unknown;
    const write = sink.write.bind(sink);
    sink.write = text => {
      const match = /event: response\.completed\ndata: (.*)\n/.exec(text);
      if (match) {
        const id = (JSON.parse(match[1]!) as { response: { id: string } }).response.id;
        storedWhenTerminalWritten = test.store.getResponse(test.accountId, id, TEST_NOW);
      }
      return write(text);
    };
    await output.pipe(sink);
    const completed = sink.messages().find(message => message.event === 'response.completed')!;
    const response = (JSON.parse(completed.data) as { response: JSONObject }).response;
    expect(response.model).toBe('client-model');
    expect((await storedWhenTerminalWritten) as unknown).toMatchObject({ id: response.id, response });
  });

  it('keeps nothing for store: false, and still resolves what such a request references', async () => {
    const test = await conversationEngine('anthropic-messages', [answerOf('anthropic-messages', 1), answerOf('anthropic-messages', 2)]);
    const first = await ask(test, { model: 'client-model', input: 'Say hello' });
    const second = await ask(test, { model: 'client-model', input: 'Again', store: false, previous_response_id: first.id as string });
    expect(turnsOf(test.calls[1]!.body)).toHaveLength(3);
    expect(await test.store.getResponse(test.accountId, second.id as string, TEST_NOW)).toBeUndefined();
  });

  it('still answers when the store fails to keep the response, and reports the failure', async () => {
    const failures: unknown[] = [];
    const test = await conversationEngine('anthropic-messages', [answerOf('anthropic-messages', 1)], { onResponseStoreError: error => void failures.push(error) });
    test.store.saveResponse = () => Promise.reject(new Error('disk full'));
    const answer = await ask(test, { model: 'client-model', input: 'Say hello' });
    expect(answer.status).toBe('completed');
    expect(failures).toEqual([new Error('disk full')]);
    expect(await test.store.getResponse(test.accountId, answer.id as string, TEST_NOW)).toBeUndefined();
  });
});

describe('references the caller’s account does not have', () => {
  it('answers 404 naming the previous response when it is unknown, before any upstream call', async () => {
    const test = await conversationEngine('anthropic-messages', []);
    const exchange = await test.open('openai-responses');
    const error = await refusalOf(exchange.generate({ model: 'client-model', input: 'Hi', previous_response_id: 'resp_missing' }, never));
    expect([error.status, error.code, error.message, error.param]).toEqual([
      404,
      'RESOURCE_NOT_FOUND',
      "Previous response with id 'resp_missing' not found.",
      'previous_response_id',
    ]);
    expect(test.calls).toHaveLength(0);
  });

  it('answers 404 to another account’s key for a response and its items, as if they did not exist', async () => {
    const test = await conversationEngine('anthropic-messages', [answerOf('anthropic-messages', 1)]);
    const first = await ask(test, { model: 'client-model', input: 'Say hello' });
    const stored = await test.store.getResponse(test.accountId, first.id as string, TEST_NOW);
    const other = await test.store.createAccount({ name: 'other', balanceMicros: 1_000_000 });
    const { secret } = await test.store.createKey({ accountId: other.id, name: 'other key' });
    const open = async () => {
      const exchange = test.engine.openExchange({ protocol: 'openai-responses' });
      await exchange.authenticate({ authorization: `Bearer ${secret}` });
      return exchange;
    };
    const byPrevious = await refusalOf((await open()).generate({ model: 'client-model', input: 'Hi', previous_response_id: first.id as string }, never));
    expect([byPrevious.status, byPrevious.message]).toEqual([404, `Previous response with id '${String(first.id)}' not found.`]);
    const itemId = stored!.inputItems[0]!.id;
    const byItem = await refusalOf((await open()).generate({ model: 'client-model', input: [{ type: 'item_reference', id: itemId }] }, never));
    expect([byItem.status, byItem.message, byItem.param]).toEqual([404, `Item with id '${itemId}' not found.`, 'input']);
    const stranger = await open();
    const retrieved = await refusalOf(test.engine.storedResponses(stranger.principal!, stranger.codec).retrieve(first.id as string));
    expect([retrieved.status, retrieved.message]).toEqual([404, `Response with id '${String(first.id)}' not found.`]);
    expect(test.calls).toHaveLength(1);
  });

  it('forgets a response once its time to live has passed', async () => {
    let now = TEST_NOW;
    const test = await conversationEngine('anthropic-messages', [answerOf('anthropic-messages', 1)], {
      now: () => now,
      responseStore: { ttlSeconds: 60 },
    });
    const first = await ask(test, { model: 'client-model', input: 'Say hello' });
    now += 59_000;
    const reader = await test.open('openai-responses');
    expect(await test.engine.storedResponses(reader.principal!, reader.codec).retrieve(first.id as string)).toEqual(first);
    now += 1_000;
    const exchange = await test.open('openai-responses');
    const error = await refusalOf(exchange.generate({ model: 'client-model', input: 'Hi', previous_response_id: first.id as string }, never));
    expect([error.status, error.param]).toEqual([404, 'previous_response_id']);
  });

  it('refuses a chain longer than maxChainResponses with a 413 naming previous_response_id', async () => {
    const answers = [1, 2, 3].map(index => answerOf('openai-chat', index));
    const test = await conversationEngine('openai-chat', answers, { responseStore: { maxChainResponses: 2 } });
    const first = await ask(test, { model: 'client-model', input: 'one' });
    const second = await ask(test, { model: 'client-model', input: 'two', previous_response_id: first.id as string });
    const third = await ask(test, { model: 'client-model', input: 'three', previous_response_id: second.id as string });
    const exchange = await test.open('openai-responses');
    const error = await refusalOf(exchange.generate({ model: 'client-model', input: 'four', previous_response_id: third.id as string }, never));
    expect([error.status, error.code, error.param]).toEqual([413, 'REQUEST_TOO_LARGE', 'previous_response_id']);
    expect(error.message).toContain('more than 2 responses');
  });
});

describe('item_reference', () => {
  it.each<Protocol>(['anthropic-messages', 'openai-chat', 'openai-responses'])(
    'replaces each reference with the stored item before a %s upstream sees the request',
    async protocol => {
      const test = await conversationEngine(protocol, [answerOf(protocol, 1), answerOf(protocol, 2)]);
      const first = await ask(test, { model: 'client-model', input: 'Say hello' });
      const outputId = (first.output as JSONObject[])[0]!.id as string;
      const inputId = (await test.store.getResponse(test.accountId, first.id as string, TEST_NOW))!.inputItems[0]!.id;
      await ask(test, {
        model: 'client-model',
        input: [{ type: 'item_reference', id: inputId }, { id: outputId }, { role: 'user', content: 'And now?' }],
      });
      const reply = ((first.output as JSONObject[])[0]!.content as JSONObject[])[0]!.text;
      expect(turnsOf(test.calls[1]!.body).filter(turn => !turn.startsWith('system'))).toEqual([
        'user: Say hello',
        `assistant: ${String(reply)}`,
        'user: And now?',
      ]);
      const upstreamInput = JSON.stringify(test.calls[1]!.body);
      expect(upstreamInput).not.toContain('item_reference');
    },
  );

  it('sends the history then the request’s own items with references replaced, and keeps only its own items, when a request continues a response and references items', async () => {
    const test = await conversationEngine('openai-responses', [1, 2, 3].map(index => answerOf('openai-responses', index)));
    const first = await ask(test, { model: 'client-model', input: 'Say hello' });
    const second = await ask(test, { model: 'client-model', input: 'Again', previous_response_id: first.id as string });
    const firstInput = (await test.store.getResponse(test.accountId, first.id as string, TEST_NOW))!.inputItems[0]!;
    const third = await ask(test, {
      model: 'client-model',
      previous_response_id: second.id as string,
      input: [{ type: 'item_reference', id: firstInput.id }, { role: 'user', content: 'And now?' }],
    });
    const replyOf = (answer: JSONObject) => String(((answer.output as JSONObject[])[0]!.content as JSONObject[])[0]!.text);
    expect(turnsOf(test.calls[2]!.body).filter(turn => !turn.startsWith('system'))).toEqual([
      'user: Say hello',
      `assistant: ${replyOf(first)}`,
      'user: Again',
      `assistant: ${replyOf(second)}`,
      'user: Say hello',
      'user: And now?',
    ]);
    expect(test.calls[2]!.body).not.toHaveProperty('previous_response_id');
    const kept = (await test.store.getResponse(test.accountId, third.id as string, TEST_NOW))!;
    expect(kept.previousResponseId).toBe(second.id);
    expect(turnsOf({ input: kept.inputItems.map(stored => stored.item as JSONObject) })).toEqual(['user: Say hello', 'user: And now?']);
  });
});

describe('stored-response endpoints', () => {
  it('reads, pages through the input items of, and deletes a stored response', async () => {
    const test = await conversationEngine('anthropic-messages', [answerOf('anthropic-messages', 1)]);
    const input = ['a', 'b', 'c', 'd', 'e'].map(text => ({ id: `msg_${text}`, type: 'message', role: 'user', content: [{ type: 'input_text', text }] }));
    const answer = await ask(test, { model: 'client-model', input });
    const exchange = await test.open('openai-responses');
    const stored = test.engine.storedResponses(exchange.principal!, exchange.codec);
    expect(await stored.retrieve(answer.id as string)).toEqual(answer);
    expect(await stored.listInputItems(answer.id as string, {})).toEqual({
      object: 'list',
      data: [...input].reverse(),
      first_id: 'msg_e',
      last_id: 'msg_a',
      has_more: false,
    });
    expect(await stored.listInputItems(answer.id as string, { order: 'asc', limit: '2', after: 'msg_a' })).toEqual({
      object: 'list',
      data: [input[1], input[2]],
      first_id: 'msg_b',
      last_id: 'msg_c',
      has_more: true,
    });
    expect(await stored.listInputItems(answer.id as string, { before: 'msg_b', limit: '2' })).toMatchObject({
      data: [input[4], input[3]],
      has_more: true,
    });
    const badLimit = await refusalOf(stored.listInputItems(answer.id as string, { limit: '101' }));
    expect([badLimit.status, badLimit.param]).toEqual([400, 'limit']);
    expect(await stored.delete(answer.id as string)).toEqual({ id: answer.id, object: 'response.deleted', deleted: true });
    const gone = await refusalOf(stored.retrieve(answer.id as string));
    expect([gone.status, gone.code]).toEqual([404, 'RESOURCE_NOT_FOUND']);
    const goneTwice = await refusalOf(stored.delete(answer.id as string));
    expect(goneTwice.status).toBe(404);
  });
});

describe('reasoning kept across turns', () => {
  it('replays signed thinking received in encrypted_content to a Messages upstream on the next turn', async () => {
    const thinking = {
      id: 'msg_thinking',
      type: 'message',
      role: 'assistant',
      model: 'claude-upstream',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'sig-abc' },
        { type: 'text', text: 'Done.' },
      ],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 3 },
    };
    const test = await conversationEngine('anthropic-messages', [{ body: JSON.stringify(thinking) }, answerOf('anthropic-messages', 2)]);
    const first = await ask(test, { model: 'client-model', input: 'Think', reasoning: { effort: 'low' } });
    expect((first.output as JSONObject[]).map(item => item.type)).toEqual(['reasoning', 'message']);
    await ask(test, { model: 'client-model', input: 'More', previous_response_id: first.id as string });
    const assistant = (test.calls[1]!.body.messages as JSONObject[])[1]!;
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'Let me think.', signature: 'sig-abc' },
      { type: 'text', text: 'Done.' },
    ]);
  });
});
