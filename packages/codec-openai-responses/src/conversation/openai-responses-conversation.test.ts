import { openAIResponsesConversation as conversation } from './openai-responses-conversation';

describe('openAIResponsesConversation: reading what a body asks of stored state', () => {
  it('reads store (true unless false), previous_response_id and both shapes of item reference', () => {
    expect(conversation.readReferences({ model: 'm', input: 'Hi' })).toEqual({ store: true, itemReferences: [] });
    expect(
      conversation.readReferences({
        model: 'm',
        store: false,
        previous_response_id: 'resp_1',
        input: [{ type: 'item_reference', id: 'msg_1' }, { id: 'fc_2' }, { role: 'user', content: 'x', id: 'msg_3' }, { type: 'message', id: 'msg_4', role: 'user', content: 'y' }],
      }),
    ).toEqual({ store: false, previousResponseId: 'resp_1', itemReferences: ['msg_1', 'fc_2'] });
  });

  it('expands a body into the whole conversation: history first, references replaced, previous_response_id gone', () => {
    const history = [{ id: 'msg_0', type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Before' }] }];
    const items = new Map([['fc_1', { id: 'fc_1', type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' }]]);
    expect(
      conversation.expandRequest(
        { model: 'm', previous_response_id: 'resp_0', input: [{ type: 'item_reference', id: 'fc_1' }, { type: 'function_call_output', call_id: 'c1', output: 'ok' }] },
        { history, items },
      ),
    ).toEqual({
      model: 'm',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Before' }] },
        { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: 'c1', output: 'ok' },
      ],
    });
    expect(conversation.expandRequest({ model: 'm', previous_response_id: 'resp_0', input: 'Now' }, { history, items: new Map() })).toEqual({
      model: 'm',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Before' }] },
        { type: 'message', role: 'user', content: 'Now' },
      ],
    });
  });

  it('replays stored items without their ids, so no upstream looks them up, but reasoning with nothing else to restore it from', () => {
    const history = [
      { id: 'rs_sealed', type: 'reasoning', summary: [], encrypted_content: 'opaque' },
      { id: 'rs_bare', type: 'reasoning', summary: [] },
      { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] },
    ];
    expect(conversation.expandRequest({ model: 'm', input: [] }, { history, items: new Map() }).input).toEqual([
      { type: 'reasoning', summary: [], encrypted_content: 'opaque' },
      { id: 'rs_bare', type: 'reasoning', summary: [] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hi', annotations: [] }] },
    ]);
  });

  it('gives the request’s own items an id of their kind, keeping the ones the client sent', () => {
    const items = conversation.inputItemsOf({
      model: 'm',
      input: [
        { role: 'user', content: 'Hi' },
        { type: 'function_call_output', call_id: 'c1', output: 'ok' },
        { type: 'message', id: 'msg_mine', role: 'assistant', content: 'Hello' },
      ],
    });
    expect(items).toEqual([
      { id: expect.stringMatching(/^msg_/), type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
      { id: expect.stringMatching(/^fco_/), type: 'function_call_output', call_id: 'c1', output: 'ok' },
      { id: 'msg_mine', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] },
    ]);
  });
});

describe('openAIResponsesConversation: the response a client received', () => {
  const response = { id: 'resp_1', object: 'response', status: 'completed', output: [] };

  it('keeps completed and incomplete answers, never failed ones', () => {
    expect(conversation.responseOfAnswer(response)).toBe(response);
    expect(conversation.responseOfAnswer({ ...response, status: 'incomplete' })).toBeDefined();
    expect(conversation.responseOfAnswer({ ...response, status: 'failed' })).toBeUndefined();
  });

  it('reads the response of response.completed and response.incomplete frames only', () => {
    const frame = (type: string) => ({ event: type, data: JSON.stringify({ type, sequence_number: 9, response }) });
    expect(conversation.responseOfStreamFrame(frame('response.completed'))).toEqual(response);
    expect(conversation.responseOfStreamFrame(frame('response.incomplete'))).toEqual(response);
    expect(conversation.responseOfStreamFrame(frame('response.failed'))).toBeUndefined();
    expect(conversation.responseOfStreamFrame(frame('response.created'))).toBeUndefined();
    const unnamed = frame('response.completed');
    expect(conversation.responseOfStreamFrame({ data: unnamed.data })).toEqual(response);
  });

  it('takes the response of a frame the gateway encoded from the object it carries, without parsing its data', () => {
    const parsed = { type: 'response.completed', sequence_number: 9, response };
    // The data is not read at all: it would not parse.
    expect(conversation.responseOfStreamFrame({ event: 'response.completed', data: '{not read', parsed })).toBe(response);
  });
});

describe('openAIResponsesConversation: wire shapes of stored responses', () => {
  it('words a 404 as the API does, naming the id cut to the length errors quote', () => {
    const error = conversation.notFound('previous-response', 'resp_x');
    expect([error.status, error.code, error.message, error.param]).toEqual([404, 'RESOURCE_NOT_FOUND', "Previous response with id 'resp_x' not found.", 'previous_response_id']);
    expect(conversation.notFound('item', 'a'.repeat(500), 'input').message).toBe(`Item with id '${'a'.repeat(200)}…' (+300 chars) not found.`);
  });

  it('says an id that is text is not an ID, without repeating it', () => {
    const error = conversation.notFound('previous-response', 'Summarise the attached medical records for me');
    expect([error.status, error.message, error.param]).toEqual([404, 'Previous response with id (not an ID) not found.', 'previous_response_id']);
  });

  it.each([
    [{}, { limit: 20, order: 'desc' }],
    [{ limit: '100', order: 'asc', after: 'msg_1', include: ['x'] }, { limit: 100, order: 'asc', after: 'msg_1' }],
  ])('reads the input-items query %j', (query, expected) => {
    expect(conversation.decodeItemQuery(query)).toEqual(expected);
  });

  it.each([[{ limit: '0' }, 'limit'], [{ limit: '1.5' }, 'limit'], [{ order: 'up' }, 'order'], [{ after: ['a', 'b'] }, 'after']])(
    'refuses the query %j with a 400 naming %s',
    (query, param) => {
      const error = (() => {
        try {
          conversation.decodeItemQuery(query);
        } catch (caught) {
          return caught as { status: number; param: string };
        }
        throw new Error('expected a refusal');
      })();
      expect([error.status, error.param]).toEqual([400, param]);
    },
  );

  it('renders a page in the list shape and a deletion', () => {
    expect(conversation.encodeItemPage({ items: [{ id: 'a' }, { id: 'b' }], hasMore: true })).toEqual({
      object: 'list',
      data: [{ id: 'a' }, { id: 'b' }],
      first_id: 'a',
      last_id: 'b',
      has_more: true,
    });
    expect(conversation.encodeDeleted('resp_1')).toEqual({ id: 'resp_1', object: 'response.deleted', deleted: true });
  });
});
