import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JSONObject } from '@signalbox/core';
import { gatewayErrorOf } from '@signalbox/core/testing';
import { authHeaders } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { parseSSEText, validateMessagesStream } from '../stream-validators';
import { at, clientBody, listAt, readWire, translateRequest, type Wire } from './translation-helpers';

/** One request the capturing upstream received. */
type Captured = { path: string; headers: IncomingHttpHeaders; rawHeaders: string[]; body: JSONObject };
const UPSTREAM_KEY = 'upstream-credential-placeholder';
const PATHS: Record<Wire, string> = {
  responses: '/v1/responses',
  messages: '/v1/messages',
  chat: '/v1/chat/completions',
};

/** What the capturing upstream answers per protocol: a JSON fixture, or a stream fixture for `stream: true`. */
const ANSWERS: Record<Wire, { json: string; stream: string }> = {
  messages: { json: 'messages-hi.1.response.json', stream: 'messages-text.1.stream.sse' },
  responses: { json: 'responses-hi.1.response.json', stream: 'responses-text.1.stream.sse' },
  chat: { json: 'chat-hi.1.response.json', stream: 'chat-text-usage.1.stream.sse' },
};

/** A loopback upstream that records every request and answers in the protocol its path names. */
async function startCapturingUpstream(): Promise<{ server: Server; url: string; calls: Captured[] }> {
  const calls: Captured[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8').on('data', chunk => (text += chunk));
    request.on('end', () => {
      const body = JSON.parse(text) as JSONObject;
      calls.push({ path: request.url ?? '', headers: request.headers, rawHeaders: request.rawHeaders, body });
      const wire = (Object.keys(PATHS) as Wire[]).find(name => request.url?.endsWith(PATHS[name])) ?? 'chat';
      const streamed = body.stream === true;
      response.writeHead(200, { 'content-type': streamed ? 'text/event-stream' : 'application/json' });
      response.end(readWire(streamed ? ANSWERS[wire].stream : ANSWERS[wire].json));
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

/** A gateway whose routes reach the capturing upstream over each protocol (`pinned` repeats the version in its headers). */
function writeConfig(directory: string, upstreamURL: string, acceptBearer: boolean): string {
  const upstream = (protocol: string, baseURL: string, headers: Record<string, string> = {}) => ({
    protocol,
    baseURL,
    apiKeyEnv: 'REGRESSION_UPSTREAM_KEY',
    headers,
  });
  const route = (model: string, target: string) => ({
    model,
    interfaces: ['responses', 'messages', 'chat'],
    targets: [{ upstream: target, model: 'upstream-model' }],
  });
  const path = join(directory, `gateway-${acceptBearer}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      upstreams: {
        messages: upstream('anthropic-messages', upstreamURL),
        pinned: upstream('anthropic-messages', `${upstreamURL}/pinned`, {
          'Anthropic-Version': '2023-06-01',
        }),
        responses: upstream('openai-responses', `${upstreamURL}/v1`),
        chat: upstream('openai-chat', `${upstreamURL}/v1`),
      },
      routes: [
        route('via-messages', 'messages'),
        route('via-pinned', 'pinned'),
        route('via-responses', 'responses'),
        route('via-chat', 'chat'),
      ],
      messages: { acceptBearer },
    }),
  );
  return path;
}

describe('parameters and headers reach each upstream in the form it accepts', () => {
  let upstream: Awaited<ReturnType<typeof startCapturingUpstream>>;
  let gateway: TestGateway;
  let optInGateway: TestGateway;
  let directory: string;

  beforeAll(async () => {
    upstream = await startCapturingUpstream();
    directory = mkdtempSync(join(tmpdir(), 'signalbox-protocol-regressions-'));
    const environment = { REGRESSION_UPSTREAM_KEY: UPSTREAM_KEY };
    [gateway, optInGateway] = await Promise.all([
      startTestGateway({ configPath: writeConfig(directory, upstream.url, false), environment }),
      startTestGateway({ configPath: writeConfig(directory, upstream.url, true), environment }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([gateway.close(1_000), optInGateway.close(1_000)]);
    await new Promise(resolve => upstream.server.close(resolve));
    rmSync(directory, { recursive: true, force: true });
  });

  /** One client call through `server`; `headers` replace the interface's usual auth headers. */
  async function call(
    wire: Wire,
    body: JSONObject,
    options: { server?: TestGateway; headers?: Record<string, string> } = {},
  ) {
    const server = options.server ?? gateway;
    const headers = options.headers ?? authHeaders[wire](server.demoKey);
    const before = upstream.calls.length;
    const response = await fetch(`${server.url}${PATHS[wire]}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: (body.stream ? {} : JSON.parse(text)) as JSONObject,
      captured: upstream.calls.slice(before),
    };
  }

  it.each([
    ['responses', { temperature: 1.7 }, 1.7],
    ['chat', { temperature: 2 }, 2],
  ] as const)(
    '%s temperature above 1 is clamped to 1 for Anthropic, with a warning',
    (client, extra, original) => {
      const { body, warnings } = translateRequest(client, 'messages', clientBody(client, extra));
      expect(body.temperature).toBe(1);
      expect(warnings).toContainEqual(
        expect.objectContaining({ field: 'temperature', details: expect.stringContaining(String(original)) }),
      );
      expect(
        translateRequest(client, 'messages', clientBody(client, { temperature: 0.4 })).body.temperature,
      ).toBe(0.4);
    },
  );

  it('a temperature above 1 reaches a Messages upstream clamped to 1 and the client sees the warning header; Messages clients above 1 get a 400', async () => {
    const { status, headers, captured } = await call(
      'responses',
      clientBody('responses', { model: 'via-messages', temperature: 1.5 }),
    );
    expect(status).toBe(200);
    expect(captured[0]?.body.temperature).toBe(1);
    expect(headers.get('x-signalbox-warnings')).toMatch(/temperature/);
    const error = gatewayErrorOf(() =>
      translateRequest('messages', 'messages', clientBody('messages', { temperature: 1.5 })),
    );
    expect([error.status, error.message]).toEqual([400, expect.stringContaining('temperature')]);
  });

  it.each([
    ['responses', { max_output_tokens: 300 }],
    ['messages', { max_tokens: 300 }],
    ['chat', { max_completion_tokens: 300 }],
  ] as const)(
    'a %s output cap goes to Chat upstreams as max_completion_tokens, never max_tokens',
    (client, extra) => {
      const { body } = translateRequest(client, 'chat', clientBody(client, extra));
      expect(body.max_completion_tokens).toBe(300);
      expect(body).not.toHaveProperty('max_tokens');
    },
  );

  it('only a Chat client that itself sent legacy max_tokens gets max_tokens upstream (its own choice)', () => {
    const { body } = translateRequest('chat', 'chat', clientBody('chat', { max_tokens: 300 }));
    expect([body.max_tokens, body.max_completion_tokens]).toEqual([300, undefined]);
  });

  it.each([
    ['messages', { max_tokens: 5 }],
    ['chat', { max_completion_tokens: 1 }],
  ] as const)(
    'a %s output cap below 16 is raised to 16 for Responses upstreams, with a warning',
    (client, extra) => {
      const { body, warnings } = translateRequest(client, 'responses', clientBody(client, extra));
      expect(body.max_output_tokens).toBe(16);
      expect(warnings.map(warning => warning.field)).toContain('maxOutputTokens');
      expect(
        translateRequest(client, 'responses', clientBody(client, { max_tokens: 16 })).body.max_output_tokens,
      ).toBe(16);
    },
  );

  it('a Responses client below 16 gets the 400 OpenAI would give, naming max_output_tokens', () => {
    const error = gatewayErrorOf(() =>
      translateRequest('responses', 'responses', clientBody('responses', { max_output_tokens: 8 })),
    );
    expect([error.status, `${error.param} ${error.message}`]).toEqual([
      400,
      expect.stringContaining('max_output_tokens'),
    ]);
  });

  const versionHeaders = (captured: Captured | undefined) =>
    (captured?.rawHeaders ?? []).filter(
      (_, index, raw) => index % 2 === 1 && raw[index - 1]!.toLowerCase() === 'anthropic-version',
    );

  it.each(['responses', 'messages', 'chat'] as const)(
    'a %s request reaches a Messages upstream with anthropic-version set exactly once',
    async client => {
      const { status, captured } = await call(client, clientBody(client, { model: 'via-messages' }));
      expect(status).toBe(200);
      expect(versionHeaders(captured[0])).toEqual(['2023-06-01']);
    },
  );

  it('anthropic-version is set once even when the upstream config also lists it among its headers', async () => {
    const { captured } = await call('messages', clientBody('messages', { model: 'via-pinned' }));
    expect(captured[0]?.path).toBe('/pinned/v1/messages');
    expect(captured[0]?.headers['anthropic-version']).toBe('2023-06-01');
    expect(versionHeaders(captured[0])).toEqual(['2023-06-01']);
  });

  it.each(['responses', 'chat'] as const)(
    'the %s interface takes Authorization: Bearer and refuses an x-api-key alone',
    async client => {
      expect((await call(client, clientBody(client, { model: 'via-chat' }))).status).toBe(200);
      const refused = await call(client, clientBody(client, { model: 'via-chat' }), {
        headers: { 'x-api-key': gateway.demoKey },
      });
      expect([refused.status, refused.json.code]).toEqual([401, 'API_KEY_MISSING']);
    },
  );

  it('Messages takes x-api-key; Bearer alone is refused naming x-api-key unless the host opts in', async () => {
    const body = clientBody('messages', { model: 'via-chat' });
    expect((await call('messages', body)).status).toBe(200);
    const bearer = (server: TestGateway) => ({
      authorization: `Bearer ${server.demoKey}`,
      'anthropic-version': '2023-06-01',
    });
    const refused = await call('messages', body, { headers: bearer(gateway) });
    expect([refused.status, refused.json.code, at(refused.json, 'error', 'type')]).toEqual([
      401,
      'API_KEY_MISSING',
      'authentication_error',
    ]);
    expect(at(refused.json, 'error', 'message')).toMatch(/x-api-key/);
    expect(
      (await call('messages', body, { server: optInGateway, headers: bearer(optInGateway) })).status,
    ).toBe(200);
  });

  it('upstream credentials are chosen by upstream protocol, and the client key is never forwarded', async () => {
    const toMessages = (await call('responses', clientBody('responses', { model: 'via-messages' })))
      .captured[0]!;
    expect([toMessages.headers['x-api-key'], toMessages.headers.authorization]).toEqual([
      UPSTREAM_KEY,
      undefined,
    ]);
    for (const model of ['via-responses', 'via-chat']) {
      const captured = (await call('messages', clientBody('messages', { model }))).captured[0]!;
      expect([captured.headers.authorization, captured.headers['x-api-key']]).toEqual([
        `Bearer ${UPSTREAM_KEY}`,
        undefined,
      ]);
      expect(captured.rawHeaders.join('\n')).not.toContain(gateway.demoKey);
    }
  });

  const anthropicBody = {
    system: 'Be terse.',
    max_tokens: 300,
    top_k: 5,
    messages: [{ role: 'user', content: 'Weather in Oslo?' }],
  };
  it('a Messages body is translated, never raw-forwarded, to OpenAI upstreams', () => {
    const responses = translateRequest('messages', 'responses', clientBody('messages', anthropicBody)).body;
    for (const field of ['system', 'max_tokens', 'messages', 'top_k'])
      expect(responses).not.toHaveProperty(field);
    expect([responses.instructions, responses.max_output_tokens]).toEqual(['Be terse.', 300]);
    const chat = translateRequest('messages', 'chat', clientBody('messages', anthropicBody)).body;
    for (const field of ['system', 'max_tokens', 'top_k']) expect(chat).not.toHaveProperty(field);
    expect(listAt(chat, 'messages')[0]).toEqual({ role: 'system', content: 'Be terse.' });
  });

  it.each([false, true])(
    'a Messages client reaching a Responses upstream (stream: %s) sends no system/max_tokens and gets its answer',
    async stream => {
      const { status, text, captured } = await call(
        'messages',
        clientBody('messages', { ...anthropicBody, model: 'via-responses', stream }),
      );
      expect(status).toBe(200);
      expect(captured[0]?.path).toBe('/v1/responses');
      for (const field of ['system', 'max_tokens', 'messages'])
        expect(captured[0]?.body).not.toHaveProperty(field);
      if (stream)
        expect(validateMessagesStream(parseSSEText(text))).toMatchObject({
          violations: [],
          outcome: 'completed',
          text: 'Hello world',
        });
      else
        expect(JSON.parse(text)).toMatchObject({ type: 'message', content: [{ type: 'text', text: 'Hi' }] });
    },
  );

  it.each([
    [
      'responses',
      {
        instructions: 'Be terse.',
        input: [
          { role: 'user', content: 'Hi' },
          { role: 'developer', content: 'Answer in French.' },
          { role: 'user', content: 'Weather?' },
        ],
      },
    ],
    [
      'chat',
      {
        messages: [
          { role: 'system', content: 'Be terse.' },
          { role: 'user', content: 'Hi' },
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Weather?' },
        ],
      },
    ],
  ] as const)(
    '%s mid-conversation system turns are hoisted into the top-level system for Anthropic',
    (client, extra) => {
      const { body } = translateRequest(client, 'messages', clientBody(client, extra));
      expect(body.system).toEqual([
        { type: 'text', text: 'Be terse.' },
        { type: 'text', text: 'Answer in French.' },
      ]);
      const messages = listAt(body, 'messages');
      expect(messages.map(message => message.role)).toEqual(['user']);
      expect(listAt(messages[0], 'content').map(block => block.text)).toEqual(['Hi', 'Weather?']);
    },
  );

  it('a Messages client’s system turn inside messages stays in place as a system message for Chat', () => {
    const { body } = translateRequest(
      'messages',
      'chat',
      clientBody('messages', {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'system', content: 'French.' },
          { role: 'user', content: 'Weather?' },
        ],
      }),
    );
    expect(listAt(body, 'messages').map(message => [message.role, message.content])).toEqual([
      ['user', 'Hi'],
      ['system', 'French.'],
      ['user', 'Weather?'],
    ]);
  });

  it('a Messages client’s system turn inside messages stays in place as an instruction item for Responses', () => {
    const { body } = translateRequest(
      'messages',
      'responses',
      clientBody('messages', {
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'system', content: 'French.' },
          { role: 'user', content: 'Weather?' },
        ],
      }),
    );
    expect(listAt(body, 'input').map(item => item.role)).toEqual(['user', 'developer', 'user']);
    expect(JSON.stringify(listAt(body, 'input')[1])).toContain('French.');
  });
});
