import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AnthropicV1 from 'anthropic-sdk-v1';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

/** The opt-in host setting: accept Bearer and API version 2026-10-21 on Messages (what SDK 1.x sends by default). */
describe('@anthropic-ai/sdk 1.x with its defaults, when the host opts in', () => {
  let server: TestGateway;
  let directory: string;

  beforeAll(async () => {
    delete process.env.ANTHROPIC_API_KEY;
    directory = mkdtempSync(join(tmpdir(), 'signalbox-config-'));
    const configPath = join(directory, 'gateway.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        upstreams: { sim: { protocol: 'anthropic-messages', baseURL: 'embedded:simulator' } },
        routes: [{ model: 'claude-like', interfaces: ['messages', 'responses'], targets: [{ upstream: 'sim', model: 'sim-1' }] }],
        messages: { acceptedVersions: ['2023-06-01', '2026-10-21'], acceptBearer: true },
      }),
    );
    server = await startTestGateway({ configPath });
  });
  afterAll(async () => {
    await server.close(1_000);
    rmSync(directory, { recursive: true, force: true });
  });

  const client = () => new AnthropicV1({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0 });

  it('serves Bearer + anthropic-version 2026-10-21, JSON and streaming', async () => {
    const message = await client().messages.create({ model: 'claude-like', max_tokens: 128, messages: [{ role: 'user', content: 'hello there' }] });
    expect(message.stop_reason).toBe('end_turn');
    const final = await client().messages.stream({ model: 'claude-like', max_tokens: 128, messages: [{ role: 'user', content: 'hello there' }] }).finalMessage();
    const text = (content: typeof message.content) => content.map(block => (block.type === 'text' ? block.text : '')).join('');
    expect(text(final.content)).toBe(text(message.content));
  });

  it('applies that version\'s rules: temperature is refused with 400 naming it', async () => {
    const failure = await client()
      .messages.create({ model: 'claude-like', max_tokens: 16, temperature: 0.5, messages: [{ role: 'user', content: 'hi' }] } as never)
      .catch(error => error);
    expect(failure.status).toBe(400);
    expect(failure.error.error.type).toBe('invalid_request_error');
    expect(failure.error.error.message).toContain('temperature');
  });
});
