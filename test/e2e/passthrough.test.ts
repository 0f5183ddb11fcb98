import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authHeaders, postForSSE } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { validateMessagesStream, validateResponsesStream } from '../stream-validators';

/** An upstream that records what it was sent and answers with fields no codec knows. */
function startRecordingUpstream() {
  const received: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', chunk => (text += chunk));
    request.on('end', () => {
      const body = JSON.parse(text) as Record<string, unknown>;
      received.push(body);
      if (request.url === '/v1/messages' && body.stream !== true) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: 'msg_upstream_own_id',
            type: 'message',
            role: 'assistant',
            model: 'upstream-name',
            content: [{ type: 'text', text: 'kept as sent', x_block_extension: 1 }],
            stop_reason: 'end_turn',
            stop_sequence: null,
            usage: { input_tokens: 3, output_tokens: 3 },
            x_upstream_extension: { kept: true },
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (request.url === '/v1/messages') {
        // Cut after one delta: no content_block_stop, message_delta or message_stop.
        response.end(
          'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_up","type":"message","role":"assistant","model":"upstream-name","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":3,"output_tokens":1}}}\n\n' +
            'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n' +
            'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"partial"}}\n\n',
        );
        return;
      }
      const response0 = {
        id: 'resp_up',
        object: 'response',
        created_at: 1,
        status: 'in_progress',
        model: 'upstream-name',
        output: [],
        usage: null,
      };
      const frames = [
        { type: 'response.created', sequence_number: 0, response: response0 },
        { type: 'response.in_progress', sequence_number: 1, response: response0 },
        {
          type: 'response.output_item.added',
          sequence_number: 2,
          output_index: 0,
          item: { type: 'message', id: 'msg_1', role: 'assistant', status: 'in_progress', content: [] },
        },
        {
          type: 'response.content_part.added',
          sequence_number: 3,
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        },
        {
          type: 'response.output_text.delta',
          sequence_number: 4,
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta: 'partial',
          logprobs: [],
        },
      ];
      response.end(frames.map(frame => `event: ${frame.type}\ndata: ${JSON.stringify(frame)}\n\n`).join(''));
    });
  });
  return { server, received };
}

describe('the same-protocol pass-through path', () => {
  const upstream = startRecordingUpstream();
  let gateway: TestGateway;
  let directory: string;

  beforeAll(async () => {
    await new Promise<void>(resolve => upstream.server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
    directory = mkdtempSync(join(tmpdir(), 'signalbox-passthrough-'));
    const configPath = join(directory, 'gateway.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        upstreams: {
          messages: { protocol: 'anthropic-messages', baseURL: url },
          responses: { protocol: 'openai-responses', baseURL: `${url}/v1` },
        },
        routes: [
          {
            model: 'client-messages',
            interfaces: ['messages'],
            targets: [{ upstream: 'messages', model: 'upstream-name' }],
          },
          {
            model: 'client-responses',
            interfaces: ['responses'],
            targets: [{ upstream: 'responses', model: 'upstream-name' }],
          },
        ],
      }),
    );
    gateway = await startTestGateway({ configPath });
  });
  afterAll(async () => {
    await gateway.close(1_000);
    (upstream.server as Server).closeAllConnections();
    await new Promise(resolve => upstream.server.close(resolve));
    rmSync(directory, { recursive: true, force: true });
  });

  it('forwards the client body with only the model replaced (a field no codec knows included, value untouched), and the answer with every field, under the client model ID', async () => {
    const body = {
      model: 'client-messages',
      max_tokens: 32,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }] },
      ],
      top_k: 7,
      brand_new_field: { nested: [1, 'two', null], flag: false },
    };
    const response = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders.messages(gateway.demoKey) },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    expect(upstream.received.at(-1)).toEqual({ ...body, model: 'upstream-name' });
    expect(answer).toMatchObject({
      id: 'msg_upstream_own_id',
      model: 'client-messages',
      x_upstream_extension: { kept: true },
    });
    expect((answer.content as Array<Record<string, unknown>>)[0]).toMatchObject({ x_block_extension: 1 });
  });

  it('ends a Messages stream cut by the upstream with the protocol error frame after what was forwarded', async () => {
    const raw = await postForSSE(`${gateway.url}/v1/messages`, authHeaders.messages(gateway.demoKey), {
      model: 'client-messages',
      max_tokens: 32,
      stream: true,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const verdict = validateMessagesStream(raw.messages);
    expect(verdict.violations).toEqual([]);
    expect(verdict.outcome).toBe('error');
    expect(verdict.text).toBe('partial');
    expect(raw.text).toContain('"model":"client-messages"');
    expect(raw.text).not.toContain('upstream-name');
  });

  it('ends a Responses stream cut by the upstream with an error event continuing its sequence numbers', async () => {
    const raw = await postForSSE(`${gateway.url}/v1/responses`, authHeaders.responses(gateway.demoKey), {
      model: 'client-responses',
      input: 'hello',
      stream: true,
    });
    const verdict = validateResponsesStream(raw.messages);
    expect(verdict.violations).toEqual([]);
    expect(verdict.outcome).toBe('error');
    const last = JSON.parse(raw.messages.at(-1)!.data) as { type: string; sequence_number: number };
    expect(last).toMatchObject({ type: 'error', sequence_number: 5 });
    expect(JSON.parse(raw.messages[0]!.data).response.id).toBe('resp_up');
  });
});

describe('billing a same-protocol Chat stream whose client did not ask for usage', () => {
  it('records an estimate instead of nothing', async () => {
    const gateway = await startTestGateway();
    try {
      const raw = await postForSSE(`${gateway.url}/v1/chat/completions`, authHeaders.chat(gateway.demoKey), {
        model: 'sim-via-chat',
        stream: true,
        messages: [{ role: 'user', content: 'count me please' }],
      });
      expect(raw.status).toBe(200);
      let record;
      for (let waited = 0; waited < 1_000 && !record; waited += 20) {
        record = gateway.recentUsage().find(entry => entry.model === 'sim-via-chat' && entry.stream);
        if (!record) await new Promise(resolve => setTimeout(resolve, 20));
      }
      expect(record?.usage).toMatchObject({ estimated: true });
      expect(record?.usage?.outputTokens).toBeGreaterThan(10);
      expect(record?.costMicros).toBeGreaterThan(0);
    } finally {
      await gateway.close(1_000);
    }
  });
});
