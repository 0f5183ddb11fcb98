import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateApiKey } from '@signalbox/accounts';
import { startExampleServer, type ExampleServer } from '../../examples/server/src';
import { openAIClientFor } from '../helpers/use-openai-gateway';

/**
 * Stored responses live in the data folder's database, not in the process: a conversation started
 * before a restart goes on after it. Served from the SQLite store's response table.
 */
describe('previous_response_id across a restart of the example server with a data folder', () => {
  let folder: string;
  let server: ExampleServer | undefined;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'signalbox-conversation-'));
  });
  afterEach(async () => {
    await server?.close(1_000);
    server = undefined;
    rmSync(folder, { recursive: true, force: true });
  });

  const start = () =>
    startExampleServer({ port: 0, storage: { kind: 'data-directory', path: join(folder, 'data') }, demoKey, environment: {} });
  const demoKey = generateApiKey();
  const clientOf = (running: ExampleServer) => openAIClientFor(running.url, demoKey);

  it.each(['sim-via-messages', 'sim-via-responses'])('continues a conversation begun before the restart on %s', async model => {
    server = await start();
    const first = await clientOf(server).responses.create({ model, input: 'Name a colour', max_output_tokens: 24 });
    await server.close(1_000);
    server = await start();
    const client = clientOf(server);
    expect((await client.responses.retrieve(first.id)).output_text).toBe(first.output_text);
    const second = await client.responses.create({ model, input: 'Name another', previous_response_id: first.id, max_output_tokens: 24 });
    expect(['completed', 'incomplete']).toContain(second.status);
    expect(second.usage!.input_tokens).toBeGreaterThan(first.usage!.input_tokens + 5);
  });
});
