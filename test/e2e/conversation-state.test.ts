import OpenAI from 'openai';
import type { Response, ResponseItem } from 'openai/resources/responses/responses';
import { useOpenAIGateway } from '../helpers/use-openai-gateway';

/** The text of a listed input message item. */
function textOf(item: ResponseItem): string {
  if (item.type !== 'message') throw new Error(`expected a message item, got ${item.type}`);
  return item.content.map(part => (part.type === 'input_text' ? part.text : '')).join('');
}

/** One route per upstream protocol, all served by the embedded simulator. */
const ROUTES = ['sim-via-messages', 'sim-via-chat', 'sim-via-responses'];
const DAY_MS = 24 * 60 * 60 * 1000;

describe('conversation state served by the gateway, with the openai SDK (7.x)', () => {
  const gateway = useOpenAIGateway();

  /** A turn, JSON or streamed through `responses.stream()`, with a short answer. */
  async function turn(model: string, stream: boolean, input: string, previous?: string): Promise<Response> {
    const body = { model, input, max_output_tokens: 24, ...(previous !== undefined && { previous_response_id: previous }) };
    return stream ? gateway.client.responses.stream(body).finalResponse() : gateway.client.responses.create(body);
  }

  describe.each(ROUTES)('on %s', model => {
    it.each([false, true])('continues a three-turn conversation by previous_response_id (stream: %s)', async stream => {
      const first = await turn(model, stream, 'Name a colour');
      const second = await turn(model, stream, 'Name another', first.id);
      const third = await turn(model, stream, 'And a third', second.id);
      for (const answer of [first, second, third]) expect(['completed', 'incomplete']).toContain(answer.status);
      // The simulator counts every input character: each turn carries the ones before it.
      const inputTokens = [first, second, third].map(answer => answer.usage!.input_tokens);
      expect(inputTokens[1]).toBeGreaterThan(inputTokens[0]! + 5);
      expect(inputTokens[2]).toBeGreaterThan(inputTokens[1]! + 5);
      const retrieved = await gateway.client.responses.retrieve(third.id);
      expect(retrieved.id).toBe(third.id);
      expect(retrieved.model).toBe(model);
      expect(retrieved.output_text).toBe(third.output_text);
    });

    it('completes a tool round trip whose result is sent with previous_response_id alone', async () => {
      const tools = [
        {
          type: 'function' as const,
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
          strict: true,
        },
      ];
      const first = await gateway.client.responses.create({ model, tools, input: 'Use get_weather to tell me the weather in Oslo' });
      const call = first.output.find(item => item.type === 'function_call');
      if (call?.type !== 'function_call') throw new Error('expected a function call');
      const second = await gateway.client.responses.create({
        model,
        tools,
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temperature":"12 C"}' }],
      });
      expect(second.status).toBe('completed');
      expect(second.output_text.length).toBeGreaterThan(0);
    });

    it('replaces item_reference inputs with the stored items', async () => {
      const first = await gateway.client.responses.create({ model, input: 'Name a colour', max_output_tokens: 24 });
      const [input] = (await gateway.client.responses.inputItems.list(first.id)).data;
      const output = first.output[0]!;
      const withReferences = await gateway.client.responses.create({
        model,
        max_output_tokens: 24,
        input: [
          { type: 'item_reference', id: input!.id },
          { type: 'item_reference', id: output.id! },
          { role: 'user', content: 'Name another' },
        ],
      });
      const alone = await gateway.client.responses.create({ model, input: 'Name another', max_output_tokens: 24 });
      expect(withReferences.usage!.input_tokens).toBeGreaterThan(alone.usage!.input_tokens + 5);
    });
  });

  it('reads, lists the input items of, and deletes a stored response', async () => {
    const input = ['one', 'two', 'three', 'four', 'five'].map(text => ({ role: 'user' as const, content: text }));
    const created = await gateway.client.responses.create({ model: 'sim-via-messages', input, max_output_tokens: 24 });
    const retrieved = await gateway.client.responses.retrieve(created.id);
    expect(retrieved).toMatchObject({ id: created.id, object: 'response', output_text: created.output_text });

    const firstPage = await gateway.client.responses.inputItems.list(created.id, { limit: 2 });
    expect(firstPage.data.map(textOf)).toEqual(['five', 'four']);
    expect(firstPage.has_more).toBe(true);
    const everything: string[] = [];
    for await (const item of gateway.client.responses.inputItems.list(created.id, { limit: 2, order: 'asc' })) {
      expect(item.id).toMatch(/^msg_/);
      everything.push(textOf(item));
    }
    expect(everything).toEqual(['one', 'two', 'three', 'four', 'five']);

    await gateway.client.responses.delete(created.id);
    await expect(gateway.client.responses.retrieve(created.id)).rejects.toMatchObject({
      status: 404,
      error: { message: `Response with id '${created.id}' not found.` },
    });
    await expect(gateway.client.responses.delete(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('answers 404 naming an unknown previous_response_id, in the Responses envelope', async () => {
    await expect(gateway.client.responses.create({ model: 'sim-via-chat', input: 'Hi', previous_response_id: 'resp_unknown' })).rejects.toMatchObject({
      status: 404,
      error: { message: "Previous response with id 'resp_unknown' not found.", param: 'previous_response_id' },
    });
  });

  it('gives another account’s key a 404 for every stored response and item of this one', async () => {
    const created = await gateway.client.responses.create({ model: 'sim-via-chat', input: 'A secret plan', max_output_tokens: 24 });
    const account = await gateway.server.store.createAccount({ name: 'someone else', balanceMicros: 10_000_000 });
    const { secret } = await gateway.server.store.createKey({ accountId: account.id, name: 'their key' });
    const other = new OpenAI({ baseURL: `${gateway.server.url}/v1`, apiKey: secret, maxRetries: 0, timeout: 15_000 });
    await expect(other.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.inputItems.list(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.delete(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.create({ model: 'sim-via-chat', input: 'Continue', previous_response_id: created.id })).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      other.responses.create({ model: 'sim-via-chat', input: [{ type: 'item_reference', id: created.output[0]!.id! }] }),
    ).rejects.toMatchObject({ status: 404, error: { message: `Item with id '${created.output[0]!.id!}' not found.` } });
    expect((await gateway.client.responses.retrieve(created.id)).id).toBe(created.id);
  });

  it('keeps nothing for store: false', async () => {
    const created = await gateway.client.responses.create({ model: 'sim-via-responses', input: 'Hi', store: false, max_output_tokens: 24 });
    await expect(gateway.client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('forgets a stored response after the default 30 days', async () => {
    const created = await gateway.client.responses.create({ model: 'sim-via-messages', input: 'Hi', max_output_tokens: 24 });
    gateway.server.clock.advance(29 * DAY_MS);
    expect((await gateway.client.responses.retrieve(created.id)).id).toBe(created.id);
    gateway.server.clock.advance(DAY_MS);
    await expect(gateway.client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
  });
});
