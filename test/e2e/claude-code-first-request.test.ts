import AnthropicV0 from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

const BETAS = ['context-management-2025-06-27', 'interleaved-thinking-2025-05-14'];

/**
 * The shape of the first request of a coding agent such as Claude Code: top-level system blocks, a
 * system turn inside `messages`, a context-management edit, adaptive thinking, client tools, and a
 * replayed tool loop with a signed thinking block. Sent with `client.beta.messages.create`, which
 * adds the `anthropic-beta` header and the `?beta=true` query.
 */
function firstRequest(model: string): MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: 2048,
    betas: BETAS,
    system: [{ type: 'text', text: 'You are a coding agent working in a git repository.' }],
    messages: [
      { role: 'system', content: 'The working tree is clean.' },
      { role: 'user', content: 'Which files are in the repository?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I should list the files.', signature: 'c2lnbmVkLXRoaW5raW5n' },
          { type: 'tool_use', id: 'toolu_01', name: 'list_files', input: { path: '.' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'README.md\npackage.json' }] },
    ],
    tools: [
      {
        name: 'list_files',
        description: 'Lists the files under a path.',
        input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      },
    ],
    thinking: { type: 'enabled', budget_tokens: 1024 },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  };
}

describe('a Claude-Code-shaped first request through the example server', () => {
  let server: TestGateway;
  const client = () => new AnthropicV0({ baseURL: server.url, apiKey: server.demoKey, maxRetries: 0, timeout: 15_000 });

  beforeAll(async () => {
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_AUTH_TOKEN;
    server = await startTestGateway();
  });
  afterAll(() => server.close(1_000));

  it('reaches a Messages upstream with its anthropic-beta flags and ?beta=true, without warnings', async () => {
    const before = server.simulator.requests().length;
    const { data, response } = await client().beta.messages.create(firstRequest('sim-via-messages')).withResponse();
    expect(response.status).toBe(200);
    expect(data.type).toBe('message');
    expect(data.model).toBe('sim-via-messages');
    expect(response.headers.get('x-signalbox-warnings')).toBeNull();
    const upstream = server.simulator.requests().slice(before);
    expect(upstream).toHaveLength(1);
    expect(upstream[0]!.url).toBe('/v1/messages?beta=true');
    expect(upstream[0]!.headers['anthropic-beta']).toBe(BETAS.join(','));
  });

  it('is answered on a translated route, with each dropped beta flag and context_management named in x-signalbox-warnings', async () => {
    const before = server.simulator.requests().length;
    const { data, response } = await client().beta.messages.create(firstRequest('sim-via-chat')).withResponse();
    expect(response.status).toBe(200);
    expect(data.type).toBe('message');
    expect(data.model).toBe('sim-via-chat');
    const warnings = (response.headers.get('x-signalbox-warnings') ?? '').split(', ');
    expect(warnings).toEqual(
      expect.arrayContaining([
        'context_management (unsupported-field)',
        'anthropic-beta: context-management-2025-06-27 (unsupported-field)',
        'anthropic-beta: interleaved-thinking-2025-05-14 (unsupported-field)',
      ]),
    );
    const upstream = server.simulator.requests().slice(before);
    expect(upstream).toHaveLength(1);
    expect(upstream[0]!.url).toBe('/v1/chat/completions');
    expect(upstream[0]!.headers['anthropic-beta']).toBeUndefined();
  });
});
