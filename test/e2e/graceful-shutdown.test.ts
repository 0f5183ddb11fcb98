import { authHeaders } from '../helpers/read-sse';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { parseSSEText, validateChatStream, validateMessagesStream, validateResponsesStream } from '../stream-validators';

describe('graceful shutdown', () => {
  it('lets an open stream finish, then closes', async () => {
    const server = await startTestGateway();
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders.messages(server.demoKey) },
      body: JSON.stringify({ model: 'sim-via-responses', max_tokens: 256, stream: true, messages: [{ role: 'user', content: '[[sim:slow=5]] go' }] }),
    });
    const body = response.text();
    const closed = server.close(5_000);
    const verdict = validateMessagesStream(parseSSEText(await body));
    expect(verdict.violations).toEqual([]);
    expect(verdict.outcome).toBe('completed');
    await closed;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('ends every stream still open at the end of the grace with its protocol’s terminal error event, recorded as interrupted', async () => {
    const server = await startTestGateway();
    const opened = await Promise.all(STREAMS.map(stream => openStream(server, stream)));
    const closing = server.close(200);
    const texts = await Promise.all(opened.map(stream => stream.rest));
    await closing;
    STREAMS.forEach((stream, index) => {
      const messages = parseSSEText(texts[index]!);
      const verdict = stream.validate(messages);
      expect(verdict.violations).toEqual([]);
      expect([stream.name, verdict.outcome]).toEqual([stream.name, stream.expected]);
      expect([stream.name, messages.at(-1)!.data]).toEqual([stream.name, expect.stringContaining('The gateway is shutting down; retry the request.')]);
    });
    const records = server.recentUsage().filter(record => record.stream);
    expect(records.map(record => [record.status, record.outcome, record.errorCode])).toEqual(
      STREAMS.map(() => [200, 'interrupted', 'SHUTTING_DOWN']),
    );
    expect(await server.store.getAccount(records[0]!.accountId!)).toMatchObject({ reservedMicros: 0 });
  });
});

type StreamCase = {
  name: string;
  path: string;
  headers(key: string): Record<string, string>;
  body: object;
  validate(messages: ReturnType<typeof parseSSEText>): { violations: string[]; outcome: string };
  expected: string;
};

// A slow simulator answer (200 ms per token) is still streaming when a 200 ms grace ends: translated
// and same-protocol routes, on each client interface.
const slowPrompt = '[[sim:slow=200]] tell me a long story';
const STREAMS: StreamCase[] = [
  {
    name: 'Responses via Messages',
    path: '/v1/responses',
    headers: authHeaders.responses,
    body: { model: 'sim-via-messages', input: slowPrompt, stream: true },
    validate: validateResponsesStream,
    expected: 'failed',
  },
  {
    name: 'Responses via Responses',
    path: '/v1/responses',
    headers: authHeaders.responses,
    body: { model: 'sim-via-responses', input: slowPrompt, stream: true },
    validate: validateResponsesStream,
    // On a same-protocol route the frames go out as written; the failure is the protocol's `error` event.
    expected: 'error',
  },
  {
    name: 'Messages via Chat',
    path: '/v1/messages',
    headers: authHeaders.messages,
    body: { model: 'sim-via-chat', max_tokens: 256, stream: true, messages: [{ role: 'user', content: slowPrompt }] },
    validate: validateMessagesStream,
    expected: 'error',
  },
  {
    name: 'Messages via Messages',
    path: '/v1/messages',
    headers: authHeaders.messages,
    body: { model: 'sim-via-messages', max_tokens: 256, stream: true, messages: [{ role: 'user', content: slowPrompt }] },
    validate: validateMessagesStream,
    expected: 'error',
  },
  {
    name: 'Chat via Responses',
    path: '/v1/chat/completions',
    headers: authHeaders.chat,
    body: { model: 'sim-via-responses', stream: true, messages: [{ role: 'user', content: slowPrompt }] },
    validate: messages => validateChatStream(messages, { expectUsage: false }),
    expected: 'error',
  },
];

/** Posts a stream and reads it until its first text has arrived (past its commit point); `rest` is the whole body. */
async function openStream(server: TestGateway, stream: StreamCase): Promise<{ rest: Promise<string> }> {
  const response = await fetch(`${server.url}${stream.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...stream.headers(server.demoKey) },
    body: JSON.stringify(stream.body),
    signal: AbortSignal.timeout(15_000),
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  while (!/delta/.test(text)) {
    const next = await reader.read();
    if (next.done) throw new Error(`${stream.name}: the stream ended before its first text`);
    text += decoder.decode(next.value, { stream: true });
  }
  const rest = (async () => {
    for (;;) {
      const next = await reader.read();
      if (next.done) return text + decoder.decode();
      text += decoder.decode(next.value, { stream: true });
    }
  })();
  return { rest };
}
