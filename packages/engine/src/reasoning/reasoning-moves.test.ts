import type { JSONObject } from '@signalbox/core';
import { listMemberPaths } from '@signalbox/core/testing';
import { createArrayFrameSink, createTestEngine, OVERLOADED_ANSWER, readFixture, type ScriptedAnswer } from '../testing';

const SIGNATURE = 'c2lnbmVkLWJ5LXVwc3RyZWFtLWE=';

/** Upstream `a` answers the first turn: signed thinking, then a tool call (as JSON and as a stream). */
const thinkingAnswer = {
  id: 'msg_01SyntheticMoveA',
  type: 'message',
  role: 'assistant',
  model: 'claude-upstream',
  content: [
    { type: 'thinking', thinking: 'I should read the notes.', signature: SIGNATURE },
    { type: 'tool_use', id: 'toolu_01Read', name: 'Read', input: { file_path: 'notes.txt' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 40, output_tokens: 12 },
};
const frame = (data: JSONObject) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
const thinkingStream = [
  frame({ type: 'message_start', message: { ...thinkingAnswer, content: [], stop_reason: null, usage: { input_tokens: 40, output_tokens: 1 } } }),
  frame({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  frame({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'I should read the notes.' } }),
  frame({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } }),
  frame({ type: 'content_block_stop', index: 0 }),
  frame({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_01Read', name: 'Read', input: {} } }),
  frame({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"file_path":"notes.txt"}' } }),
  frame({ type: 'content_block_stop', index: 1 }),
  frame({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 12 } }),
  frame({ type: 'message_stop' }),
].join('');

const served: ScriptedAnswer = { body: readFixture('messages-answer.json') };

/** Claude Code's shape (`claude -p`, 2.1.x): cached system blocks, a system turn, adaptive thinking shown as updates, a tool loop. */
function claudeCodeTurn(model: string, stream: boolean): JSONObject {
  return {
    model,
    max_tokens: 32000,
    stream,
    system: [
      { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.328;' },
      { type: 'text', text: 'You are a Claude agent.', cache_control: { type: 'ephemeral' } },
    ],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'Read notes.txt and tell me what it says' }] },
      { role: 'system', content: '# Environment\nPrimary working directory: /work' },
      { role: 'assistant', content: thinkingAnswer.content },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_01Read', content: 'snow chains are in the boot', cache_control: { type: 'ephemeral' } }],
      },
    ],
    tools: [{ name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }],
    metadata: { user_id: '{"session_id":"3f0c2a9e-session"}' },
    thinking: { type: 'adaptive', display: 'updates' },
    output_config: { effort: 'high' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  };
}

async function engineWithTwoUpstreams(aAnswers: readonly ScriptedAnswer[], bAnswers: readonly ScriptedAnswer[]) {
  return createTestEngine({
    upstreams: { a: { protocol: 'anthropic-messages', answers: aAnswers }, b: { protocol: 'anthropic-messages', answers: bAnswers } },
    routes: [
      { model: 'on-a', interfaces: ['messages', 'responses'], targets: [{ upstream: 'a', model: 'a-model' }] },
      { model: 'on-b', interfaces: ['messages', 'responses'], targets: [{ upstream: 'b', model: 'b-model' }] },
      { model: 'a-then-b', interfaces: ['messages'], targets: [{ upstream: 'a', model: 'a-model' }, { upstream: 'b', model: 'b-model' }] },
    ],
  });
}

type TestEngine = Awaited<ReturnType<typeof engineWithTwoUpstreams>>;

async function send(test: TestEngine, body: JSONObject, protocol: 'anthropic-messages' | 'openai-responses' = 'anthropic-messages') {
  const exchange = await test.open(protocol);
  const output = await exchange.generate(body, new AbortController().signal);
  if (output.kind === 'stream') await output.pipe(createArrayFrameSink());
  return output;
}

/** The first turn, answered by `a` with its signed thinking. */
const firstTurn = (stream: boolean) => ({
  model: 'on-a',
  max_tokens: 32000,
  stream,
  messages: [{ role: 'user', content: 'Read notes.txt and tell me what it says' }],
  thinking: { type: 'adaptive', display: 'updates' },
});

describe('signed thinking when a conversation moves between upstreams', () => {
  it.each([
    { answered: 'as JSON', stream: false, first: { body: JSON.stringify(thinkingAnswer) } },
    { answered: 'as a stream', stream: true, first: { body: thinkingStream, chunkSize: 40 } },
  ])('Claude Code’s tool loop answered by a $answered: a → b drops the signature (its text kept), a → a keeps it', async ({ stream, first }) => {
    const test = await engineWithTwoUpstreams([first, served], [served]);
    await send(test, firstTurn(stream));

    const moved = await send(test, claudeCodeTurn('on-b', false));
    const [toB] = test.upstream('b').calls;
    const assistant = (toB!.body.messages as JSONObject[]).find(turn => turn.role === 'assistant');
    expect(assistant!.content).toEqual([
      { type: 'text', text: 'I should read the notes.' },
      { type: 'tool_use', id: 'toolu_01Read', name: 'Read', input: { file_path: 'notes.txt' } },
    ]);
    expect(JSON.stringify(toB!.body)).not.toContain(SIGNATURE);
    // The last turn no longer starts with thinking, so thinking stays off rather than fail the tool loop.
    expect(toB!.body.thinking).toBeUndefined();
    // The client's own cache breakpoints go with it, and so do its Messages-only fields.
    expect(toB!.body.context_management).toEqual({ edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] });
    expect(listMemberPaths(toB!.body, 'cache_control').sort()).toEqual(['messages.2.content.0', 'system.1']);
    expect(moved.headers['x-signalbox-warnings']).toContain('messages.reasoning (lossy-conversion)');

    const stayed = await send(test, claudeCodeTurn('on-a', false));
    expect(test.upstream('a').calls[1]!.body).toEqual({ ...claudeCodeTurn('on-a', false), model: 'a-model' });
    expect(stayed.headers['x-signalbox-warnings']).toBeUndefined();
  });

  it('fails over from a to b within one request: a gets the signature, b its text', async () => {
    const test = await engineWithTwoUpstreams([{ body: JSON.stringify(thinkingAnswer) }, OVERLOADED_ANSWER], [served]);
    await send(test, firstTurn(false));
    await send(test, claudeCodeTurn('a-then-b', false));
    const [, toA] = test.upstream('a').calls;
    const [toB] = test.upstream('b').calls;
    expect(JSON.stringify(toA!.body)).toContain(SIGNATURE);
    expect(JSON.stringify(toB!.body)).not.toContain(SIGNATURE);
    expect(JSON.stringify(toB!.body)).toContain('{"type":"text","text":"I should read the notes."}');
  });

  it('sends a signature the gateway never passed on as the client sent it (it cannot know who made it)', async () => {
    const test = await engineWithTwoUpstreams([], [served]);
    await send(test, claudeCodeTurn('on-b', false));
    expect(test.upstream('b').calls[0]!.body).toEqual({ ...claudeCodeTurn('on-b', false), model: 'b-model' });
  });

  it('applies to a Responses conversation continued by previous_response_id on another upstream', async () => {
    const test = await engineWithTwoUpstreams([{ body: JSON.stringify(thinkingAnswer) }, served], [served]);
    const first = await send(test, { model: 'on-a', input: 'Read notes.txt', reasoning: { effort: 'high' } }, 'openai-responses');
    if (first.kind !== 'json') throw new Error('expected a JSON answer');
    const continued = (model: string) => ({
      model,
      previous_response_id: first.body.id as string,
      input: [{ type: 'function_call_output', call_id: 'toolu_01Read', output: 'snow chains are in the boot' }],
    });
    await send(test, continued('on-b'), 'openai-responses');
    const toB = JSON.stringify(test.upstream('b').calls[0]!.body);
    expect(toB).not.toContain(SIGNATURE);
    expect(toB).toContain('{"type":"text","text":"I should read the notes."}');
    await send(test, continued('on-a'), 'openai-responses');
    expect(JSON.stringify(test.upstream('a').calls[1]!.body)).toContain(`{"type":"thinking","thinking":"I should read the notes.","signature":"${SIGNATURE}"}`);
  });
});
