import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AnthropicV0 from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { listenOnLoopback, type LoopbackServer } from '../helpers/listen-on-loopback';
import { authHeaders, postForSSE } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

// Messages upstream captures (the Messages codec's fixtures, provenance in their README) replayed
// byte for byte by a real upstream on loopback, read through the gateway by the official clients.
const FIXTURES = join(__dirname, '../../packages/codec-anthropic-messages/src/__fixtures__');
const capture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const asClientModel = (text: string) =>
  text.replaceAll('"model":"claude-sonnet-4-6"', '"model":"client-model"');
const MODEL = 'client-model';

describe('Messages upstream captures through every client interface', () => {
  let upstream: LoopbackServer;
  let gateway: TestGateway;
  let directory: string;
  /** What the upstream answers next: a capture's name (`.json` answers as JSON, the rest as SSE). */
  let next = '';

  beforeAll(async () => {
    upstream = await listenOnLoopback((request, response) => {
      request.resume();
      request.on('end', () => {
        const json = next.endsWith('.json');
        response.writeHead(200, { 'content-type': json ? 'application/json' : 'text/event-stream' });
        response.end(capture(next));
      });
    });
    directory = mkdtempSync(join(tmpdir(), 'signalbox-captures-'));
    const configPath = join(directory, 'gateway.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        upstreams: { anthropic: { protocol: 'anthropic-messages', baseURL: upstream.url } },
        routes: [
          {
            model: MODEL,
            interfaces: ['messages', 'chat', 'responses'],
            targets: [{ upstream: 'anthropic', model: 'claude-sonnet-4-6' }],
          },
        ],
      }),
    );
    gateway = await startTestGateway({ configPath });
  });
  afterAll(async () => {
    await gateway.close(1_000);
    await upstream.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const messagesBody = {
    model: MODEL,
    max_tokens: 64,
    messages: [{ role: 'user' as const, content: 'Ferries from Oslo?' }],
  };
  const anthropic = () => new AnthropicV0({ baseURL: gateway.url, apiKey: gateway.demoKey, maxRetries: 0 });
  const openai = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.demoKey, maxRetries: 0 });

  it('forwards a paused turn (pause_turn) to a Messages client as sent, stream and JSON, so the SDK can continue it', async () => {
    next = 'pause-turn.1.stream.sse';
    const raw = await postForSSE(`${gateway.url}/v1/messages`, authHeaders.messages(gateway.demoKey), {
      ...messagesBody,
      stream: true,
    });
    expect(raw.text).toBe(asClientModel(capture('pause-turn.1.stream.sse')));
    const streamed = await anthropic().messages.stream(messagesBody).finalMessage();
    expect(streamed.stop_reason).toBe('pause_turn');
    expect(streamed.content.map(block => block.type)).toEqual([
      'text',
      'server_tool_use',
      'web_search_tool_result',
    ]);

    next = 'pause-turn.1.response.json';
    const answer = await anthropic().messages.create(messagesBody);
    expect(answer).toEqual({ ...JSON.parse(capture('pause-turn.1.response.json')), model: MODEL });
  });

  it('still refuses a paused turn on a translated route: the Chat SDK throws instead of reading a finished answer', async () => {
    next = 'pause-turn.1.stream.sse';
    const body = { model: MODEL, messages: [{ role: 'user' as const, content: 'Ferries from Oslo?' }] };
    await expect(openai().chat.completions.stream(body).finalChatCompletion()).rejects.toThrow(/pause_turn/);
    next = 'pause-turn.1.response.json';
    await expect(openai().chat.completions.create(body)).rejects.toMatchObject({ status: 502 });
  });

  it('gives a Chat client `length` with the cut arguments for a tool call cut by max_tokens', async () => {
    next = 'max-tokens-in-tool-input.1.stream.sse';
    const completion = await openai()
      .chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'Weather in Tromsø?' }] })
      .finalChatCompletion();
    expect(completion.choices[0]?.finish_reason).toBe('length');
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      id: 'toolu_01SyntheticCutInput',
      function: { name: 'get_weather', arguments: '{"city": "Tromsø", "days": ' },
    });
  });

  it('never forwards a Messages frame whose data is not JSON: the error event goes out in its place', async () => {
    next = 'not-json-frame.1.malformed.sse';
    const raw = await postForSSE(`${gateway.url}/v1/messages`, authHeaders.messages(gateway.demoKey), {
      ...messagesBody,
      stream: true,
    });
    const sent = capture('not-json-frame.1.malformed.sse');
    const before = sent.slice(0, sent.indexOf('event: proxy_status'));
    const error = {
      type: 'error',
      error: { type: 'api_error', message: 'The upstream sent malformed JSON in a stream event.' },
    };
    expect(raw.text).toBe(`${asClientModel(before)}event: error\ndata: ${JSON.stringify(error)}\n\n`);
    await expect(anthropic().messages.stream(messagesBody).finalMessage()).rejects.toThrow(/malformed JSON/);
  });
});
