import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@signalbox/accounts';
import OpenAI from 'openai';
import type { ResponseCompactionItem, ResponseInputItem } from 'openai/resources/responses/responses';
import { startExampleServer } from '../../examples/server/src';
import type { TestGateway } from '../helpers/start-test-gateway';
import { openAIClientFor, useOpenAIGateway } from '../helpers/use-openai-gateway';

/**
 * Remote compaction as Codex uses it, through the real `openai` SDK: `responses.compact`, then a
 * `responses.create` whose input carries the compaction item, on a route of each upstream protocol
 * (the embedded simulator writes the summary).
 */
const ROUTES = ['sim-via-responses', 'sim-via-messages', 'sim-via-chat'];

const history: ResponseInputItem[] = [
  { role: 'user', content: 'Plan a weekend in Oslo for two.' },
  { type: 'message', role: 'assistant', content: 'Day one: the Opera House and a fjord cruise.' } as ResponseInputItem,
  { role: 'user', content: [{ type: 'input_text', text: 'Add a museum on day two.' }] },
  { type: 'message', role: 'assistant', content: 'Day two: the Munch Museum.' } as ResponseInputItem,
];

describe('remote compaction through the openai SDK', () => {
  const gateway = useOpenAIGateway();

  describe.each(ROUTES)('on %s', model => {
    it('compacts to the user messages and one sealed compaction item, which a later request carries', async () => {
      const compacted = await gateway.client.responses.compact({ model, input: history });
      expect(compacted.object).toBe('response.compaction');
      expect(compacted.output).toHaveLength(3);
      expect(compacted.output.slice(0, 2)).toEqual([
        expect.objectContaining({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Plan a weekend in Oslo for two.' }] }),
        expect.objectContaining({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Add a museum on day two.' }] }),
      ]);
      const item = compacted.output[2] as ResponseCompactionItem;
      expect(item.type).toBe('compaction');
      expect(item.id).toMatch(/^cmp_/);
      expect(item.encrypted_content).toMatch(/^sy1\./);
      expect(compacted.usage.input_tokens).toBeGreaterThan(0);
      expect(compacted.usage.output_tokens).toBeGreaterThan(0);

      const next = await gateway.client.responses.create({
        model,
        input: [...(compacted.output as ResponseInputItem[]), { role: 'user', content: 'What about day three?' }],
      });
      expect(next.status).toBe('completed');
      expect(next.output_text.length).toBeGreaterThan(0);
    });

    it('records the compaction call with its usage', async () => {
      const before = gateway.server.recentUsage().length;
      const compacted = await gateway.client.responses.compact({ model, input: history });
      const records = await waitForRecords(gateway.server, before + 1);
      expect(records.at(-1)).toMatchObject({
        status: 200,
        outcome: 'completed',
        model,
        usage: { inputTokens: compacted.usage.input_tokens, outputTokens: compacted.usage.output_tokens },
      });
    });
  });

  it('accepts the compaction body Codex sends (instructions, tools, reasoning, text, prompt_cache_key)', async () => {
    const codexBody = {
      model: 'sim-via-chat',
      input: history,
      instructions: 'You are a coding agent.',
      tools: [{ type: 'function', name: 'shell', description: 'Run a command', parameters: { type: 'object', properties: {} }, strict: false }],
      parallel_tool_calls: false,
      reasoning: { effort: 'medium' },
      text: { verbosity: 'low' },
      prompt_cache_key: 'thread-7f3a',
    } as unknown as OpenAI.Responses.ResponseCompactParams;
    const compacted = await gateway.client.responses.compact(codexBody);
    expect(compacted.output.at(-1)).toMatchObject({ type: 'compaction' });
  });

  it('refuses a changed compaction item with a 400 in the Responses envelope naming the item', async () => {
    const compacted = await gateway.client.responses.compact({ model: 'sim-via-chat', input: history });
    const item = compacted.output.at(-1) as ResponseCompactionItem;
    const content = item.encrypted_content;
    const changed = { ...item, encrypted_content: `${content.slice(0, 10)}${content[10] === 'A' ? 'B' : 'A'}${content.slice(11)}` };
    const failure = await gateway.client.responses
      .create({ model: 'sim-via-messages', input: [changed as ResponseInputItem, { role: 'user', content: 'Go on' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    const error = failure as InstanceType<typeof OpenAI.BadRequestError>;
    expect(error.status).toBe(400);
    expect(error.message).toContain('input.0.encrypted_content');
  });

  it('answers a compaction_trigger at the end of the input with a compaction item as the output, streamed too', async () => {
    const trigger = { type: 'compaction_trigger' } as ResponseInputItem;
    const response = await gateway.client.responses.create({ model: 'sim-via-messages', input: [...history, trigger] });
    expect(response.status).toBe('completed');
    expect(response.output).toEqual([{ id: expect.stringMatching(/^cmp_/), type: 'compaction', encrypted_content: expect.stringMatching(/^sy1\./) }]);

    const stream = await gateway.client.responses.create({ model: 'sim-via-chat', input: [...history, trigger], stream: true });
    const types: string[] = [];
    let completed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.completed') completed = event.response;
    }
    expect(types).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.output_item.done', 'response.completed']);
    expect(completed?.output[0]).toMatchObject({ type: 'compaction' });
  });
});

describe('compaction items across a restart of the example server', () => {
  const folder = mkdtempSync(join(tmpdir(), 'signalbox-compaction-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('open after a restart on the same data folder: the sealing secret is derived from its server secret', async () => {
    const demoKey = generateApiKey();
    const start = () =>
      startExampleServer({ port: 0, host: '127.0.0.1', storage: { kind: 'data-directory', path: folder }, environment: {}, demoKey });
    const first = await start();
    const compacted = await openAIClientFor(first.url, demoKey).responses.compact({ model: 'sim-via-messages', input: history }).finally(() => first.close(1_000));
    const second = await start();
    try {
      const next = await openAIClientFor(second.url, demoKey).responses.create({
        model: 'sim-via-chat',
        input: [...(compacted.output as ResponseInputItem[]), { role: 'user', content: 'What about day three?' }],
      });
      expect(next.status).toBe('completed');
    } finally {
      await second.close(1_000);
    }
  });
});

/** Usage records are written after the answer is sent: waits (a few event-loop turns) until `count` exist. */
async function waitForRecords(server: TestGateway, count: number) {
  for (let turn = 0; turn < 200 && server.recentUsage().length < count; turn++) await new Promise(resolve => setImmediate(resolve));
  return server.recentUsage();
}
