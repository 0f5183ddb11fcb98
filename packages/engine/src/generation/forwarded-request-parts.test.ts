import { createTestEngine, readFixture } from '../testing';
import { WARNINGS_HEADER } from './format-warnings-header';
import { describeDroppedFlags, NO_FORWARDED_PARTS } from './forwarded-request-parts';

const CLIENT_BETAS = 'context-management-2025-06-27, interleaved-thinking-2025-05-14';

// A Claude-Code-shaped first turn: a system turn inside messages and a context-management edit.
const body = {
  model: 'client-model',
  max_tokens: 256,
  system: 'You are a coding agent.',
  messages: [
    { role: 'system', content: 'The repository is clean.' },
    { role: 'user', content: 'List the files.' },
  ],
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
};

const chatAnswer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-upstream',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
};

async function engineWith(protocol: 'anthropic-messages' | 'openai-chat', answer: string) {
  return createTestEngine({
    upstreams: {
      a: {
        protocol,
        answers: [{ body: answer }],
        headers: { 'Anthropic-Beta': 'interleaved-thinking-2025-05-14,prompt-caching-2024-07-31' },
      },
    },
    routes: [{ model: 'client-model', interfaces: ['messages'], targets: [{ upstream: 'a', model: 'upstream-model' }] }],
  });
}

async function generateWithBetas(test: Awaited<ReturnType<typeof engineWith>>) {
  const exchange = test.engine.openExchange({ protocol: 'anthropic-messages' });
  await exchange.authenticate({ ...test.headers('anthropic-messages'), 'anthropic-beta': CLIENT_BETAS }, { beta: 'true' });
  return exchange.generate(body, new AbortController().signal);
}

describe('vendor flags of the client request', () => {
  it('sends the client’s anthropic-beta flags, merged with the upstream’s configured ones, and ?beta=true to a Messages upstream', async () => {
    const test = await engineWith('anthropic-messages', readFixture('messages-answer.json'));
    const output = await generateWithBetas(test);
    expect(output.kind).toBe('json');
    expect(output.headers[WARNINGS_HEADER]).toBeUndefined();
    expect(test.calls).toHaveLength(1);
    const [call] = test.calls;
    expect(call!.path).toBe('/v1/messages?beta=true');
    expect(call!.headers).toEqual({
      'anthropic-beta': 'interleaved-thinking-2025-05-14,prompt-caching-2024-07-31,context-management-2025-06-27',
    });
    // The pass-through keeps the client's body as it is, apart from the model.
    expect(call!.body).toEqual({ ...body, model: 'upstream-model' });
  });

  it('turns the client’s beta flags and Messages-only fields into warnings for an upstream of another protocol', async () => {
    const test = await engineWith('openai-chat', JSON.stringify(chatAnswer));
    const output = await generateWithBetas(test);
    expect(output.kind).toBe('json');
    expect(output.headers[WARNINGS_HEADER]).toBe(
      'context_management (unsupported-field), ' +
        'anthropic-beta: context-management-2025-06-27 (unsupported-field), ' +
        'anthropic-beta: interleaved-thinking-2025-05-14 (unsupported-field)',
    );
    const [call] = test.calls;
    expect(call!.path).toBe('/chat/completions');
    expect(call!.headers).toEqual({});
    // The system turn keeps its place between the top-level instructions and the user's turn.
    expect(call!.body.messages).toEqual([
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'system', content: 'The repository is clean.' },
      { role: 'user', content: 'List the files.' },
    ]);
  });
});

describe('client headers listed in forwardClientHeaders', () => {
  const responsesAnswer = {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    status: 'completed',
    model: 'upstream-model',
    output: [{ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Done.', annotations: [] }] }],
    usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7 },
  };
  const codexHeaders = {
    'x-codex-turn-metadata': '{"turn_id":"t-1","sandbox":"seccomp"}',
    'x-codex-window-id': 'thread-1:0',
    'x-client-request-id': 'thread-1',
    'x-other-header': 'stays',
  };

  async function engineWith(protocol: 'openai-responses' | 'openai-chat', answer: unknown) {
    return createTestEngine({
      upstreams: { a: { protocol, answers: [{ body: JSON.stringify(answer) }], headers: { 'X-Client-Request-Id': 'configured-by-operator' } } },
      routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'a', model: 'upstream-model' }] }],
      forwardClientHeaders: ['x-codex-*', 'X-Client-Request-Id'],
    });
  }

  async function generate(test: Awaited<ReturnType<typeof engineWith>>) {
    const exchange = test.engine.openExchange({ protocol: 'openai-responses' });
    await exchange.authenticate({ ...test.headers('openai-responses'), ...codexHeaders });
    return exchange.generate({ model: 'client-model', input: 'Say hello' }, new AbortController().signal);
  }

  it('go as sent to an upstream of the same protocol, except a header the upstream’s config sets itself', async () => {
    const test = await engineWith('openai-responses', responsesAnswer);
    const output = await generate(test);
    expect(output.kind).toBe('json');
    expect(test.calls[0]!.headers).toEqual({
      'x-codex-turn-metadata': '{"turn_id":"t-1","sandbox":"seccomp"}',
      'x-codex-window-id': 'thread-1:0',
    });
  });

  it('are not sent to an upstream of another protocol', async () => {
    const test = await engineWith('openai-chat', chatAnswer);
    const output = await generate(test);
    expect(output.kind).toBe('json');
    expect(test.calls[0]!.headers).toEqual({});
  });

  it.each([['authorization'], ['x-api-key'], ['Cookie'], ['x-*'], ['*'], ['anthropic-*'], ['content-encoding'], ['x codex']])(
    'refuse the pattern %s in the config: credentials and transport headers are never forwarded',
    async pattern => {
      await expect(
        createTestEngine({
          upstreams: { a: { protocol: 'openai-responses' } },
          routes: [{ model: 'client-model', interfaces: ['responses'], targets: [{ upstream: 'a', model: 'upstream-model' }] }],
          forwardClientHeaders: [pattern],
        }),
      ).rejects.toThrow(/forwardClientHeaders/);
    },
  );
});

describe('describeDroppedFlags', () => {
  const fieldsOf = (flags: string[]) => describeDroppedFlags({ ...NO_FORWARDED_PARTS, headers: { 'anthropic-beta': flags } }).map(warning => warning.field);

  it('names each flag of a flag’s shape', () => {
    expect(fieldsOf(['interleaved-thinking-2025-05-14', 'context-1m-2025-08-07'])).toEqual([
      'anthropic-beta: interleaved-thinking-2025-05-14',
      'anthropic-beta: context-1m-2025-08-07',
    ]);
  });

  it('shows text, a key, a credential of a flag’s shape and a flag past 64 characters as [redacted]', () => {
    // Key-shaped, built at run time; the admin token is lower-case hex, as a flag could be.
    const fields = fieldsOf(['prompt-caching-2024-07-31', 'summarise my medical records', `sbx-${'A'.repeat(40)}`, `sbx-admin-${'0'.repeat(48)}`, 'a'.repeat(65)]);
    expect(fields).toEqual(['anthropic-beta: prompt-caching-2024-07-31', ...Array<string>(4).fill('anthropic-beta: [redacted]')]);
  });
});
