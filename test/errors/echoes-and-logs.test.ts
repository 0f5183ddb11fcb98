import { randomBytes } from 'node:crypto';
import { generateApiKey } from '@signalbox/accounts';
import { Writable } from 'node:stream';
import { createLogger } from '../../examples/server/src';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';

/** A card number of the test-card kind (it passes the Luhn check), as a user might paste one into a prompt. */
const CARD_NUMBER = ['4111', '1111', '1111', '1111'].join(' ');
/** Words no log line has any reason to hold. */
const PROMPT_WORDS = 'Please settle the invoice about the violet pangolin sanctuary';
/** The most any one log line may weigh, whatever the client sent. */
const MAX_LOG_LINE_BYTES = 4_096;
const MAX_ERROR_BODY_BYTES = 4_096;

/** One generation endpoint per interface, and a minimal body for it. */
const INTERFACES = [
  { name: 'responses', path: '/v1/responses', body: (model: string, text: string) => ({ model, input: text }) },
  {
    name: 'messages',
    path: '/v1/messages',
    body: (model: string, text: string) => ({ model, max_tokens: 64, messages: [{ role: 'user', content: text }] }),
  },
  { name: 'chat', path: '/v1/chat/completions', body: (model: string, text: string) => ({ model, messages: [{ role: 'user', content: text }] }) },
] as const;

/** Each upstream protocol behind the interface of another (or the same) protocol. */
const UPSTREAM_CASES = [
  { upstream: 'responses', model: 'sim-via-responses', client: INTERFACES[1] },
  { upstream: 'messages', model: 'sim-via-messages', client: INTERFACES[2] },
  { upstream: 'chat', model: 'sim-via-chat', client: INTERFACES[0] },
] as const;

/** An upstream failure quoting the prompt, and what the client gets for it. */
const ECHOED_FAILURES = [
  { upstream: 500, status: 502, code: 'UPSTREAM_FAILED', level: 50 },
  { upstream: 400, status: 400, code: 'UPSTREAM_INVALID_REQUEST', level: 20 },
] as const;

async function post(server: TestGateway, client: { path: string }, body: unknown) {
  const response = await fetch(`${server.url}${client.path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${server.demoKey}`,
      'x-api-key': server.demoKey,
      'anthropic-version': '2023-06-01',
    },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    text: await response.text(),
    requestId: response.headers.get('x-request-id') ?? '',
    warnings: response.headers.get('x-signalbox-warnings'),
  };
}

describe('what the gateway echoes and logs', () => {
  let server: TestGateway;

  beforeAll(async () => {
    server = await startTestGateway();
  });
  afterAll(() => server.close());

  const lines = () => server.audit.lines();
  const linesOf = (requestId: string) => server.linesAbout(requestId);

  describe.each(UPSTREAM_CASES)('a $upstream upstream', ({ model, client }) => {
    it.each(ECHOED_FAILURES)(
      'answering $upstream with the prompt and a card number in its message: the client gets $status $code with the upstream words, no log line holds them',
      async ({ upstream, status, code, level }) => {
        const prompt = `[[sim:status=${upstream}]] [[sim:echo-prompt]] ${PROMPT_WORDS}, card ${CARD_NUMBER}.`;
        const answer = await post(server, client, client.body(model, prompt));

        expect(answer.status).toBe(status);
        expect(JSON.parse(answer.text)).toMatchObject({ code });
        expect(answer.text).toContain(`${PROMPT_WORDS}, card ${CARD_NUMBER}.`);
        const logged = await linesOf(answer.requestId);
        // The line of the failure the client got (the failed attempt's debug line comes before it).
        const failureLine = logged.map(line => JSON.parse(line) as Record<string, unknown>).find(line => line.code === code && line.msg !== 'upstream attempt failed');
        expect(failureLine).toMatchObject({
          level,
          status,
          upstream: { status: upstream, message: { chars: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{16}$/) } },
        });
        for (const line of lines()) {
          expect(line).not.toContain('violet pangolin');
          expect(line).not.toContain(CARD_NUMBER);
        }
        expect(server.audit.findLeaks()).toEqual([]);
      },
    );
  });

  it.each(INTERFACES)(
    'refuses a 3.9 MB model on $name with a 404 MODEL_NOT_FOUND of under 4 KB, and no log line over 4 KB',
    async client => {
      // Random, so that no piece of what is cut off also occurs in the part that is kept.
      const model = randomBytes(1_950_000).toString('hex');
      const answer = await post(server, client, client.body(model, 'Say hello to the gateway'));

      expect(answer.status).toBe(404);
      expect(Buffer.byteLength(answer.text)).toBeLessThan(MAX_ERROR_BODY_BYTES);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'MODEL_NOT_FOUND' });
      expect(answer.text).toContain(`'${model.slice(0, 200)}…' (+3899800 chars)`);
      const logged = await linesOf(answer.requestId);
      expect(logged.length).toBeGreaterThanOrEqual(2);
      for (const line of lines()) expect(Buffer.byteLength(line)).toBeLessThan(MAX_LOG_LINE_BYTES);
      expect(server.recentUsage().at(-1)).toMatchObject({ requestId: answer.requestId, model: `${model.slice(0, 200)}… (+3899800 chars)` });
    },
  );

  it('keeps no more than a model ID’s length of prompt text sent as the model in the usage line', async () => {
    const pasted = `Ship the parcel to the amber heron lodge ${randomBytes(100).toString('hex')} card ${CARD_NUMBER}`;
    const answer = await post(server, INTERFACES[0], INTERFACES[0].body(pasted, 'hello'));

    expect(answer.status).toBe(404);
    const usageLine = (await linesOf(answer.requestId)).find(line => line.includes('"usage"'));
    const usage = (JSON.parse(usageLine ?? '{}') as { usage?: { model?: string } }).usage;
    expect(usage?.model).toBe(`${pasted.slice(0, 200)}… (+${pasted.length - 200} chars)`);
    for (const line of lines()) expect(line).not.toContain(CARD_NUMBER);
  });

  it('echoes no more than 200 characters of an unknown path in the 404, and logs no more than 500', async () => {
    const path = `/v1/${'p'.repeat(8_000)}`;
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${server.demoKey}` } });
    const text = await response.text();

    expect(response.status).toBe(404);
    expect(Buffer.byteLength(text)).toBeLessThan(MAX_ERROR_BODY_BYTES);
    expect(text).toContain(`${path.slice(0, 200)}… (+${path.length - 200} chars)`);
    for (const line of lines()) expect(Buffer.byteLength(line)).toBeLessThan(MAX_LOG_LINE_BYTES);
  });

  it('cuts an unknown parameter’s name in the refusal and its param (remote compaction, which takes no other field)', async () => {
    const field = 'f'.repeat(100_000);
    const answer = await post(server, { path: '/v1/responses/compact' }, { model: 'signalbox-sim', input: 'hello', [field]: 1 });

    expect(answer.status).toBe(400);
    expect(Buffer.byteLength(answer.text)).toBeLessThan(MAX_ERROR_BODY_BYTES);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 'INVALID_REQUEST', error: { param: `${'f'.repeat(200)}… (+99800 chars)` } });
  });

  it('answers a body with a 100 000-character unknown field name on a translated route, counting the field in the warnings without naming it', async () => {
    const field = 'f'.repeat(100_000);
    const answer = await post(server, INTERFACES[0], { ...INTERFACES[0].body('signalbox-sim', 'hello'), [field]: 1 });

    expect(answer.status).toBe(200);
    expect(answer.warnings).toBe('1 other field (unknown-field)');
    expect(answer.text).not.toContain('f'.repeat(300));
    const logged = await linesOf(answer.requestId);
    expect(logged.length).toBeGreaterThanOrEqual(1);
    for (const line of lines()) expect(Buffer.byteLength(line)).toBeLessThan(MAX_LOG_LINE_BYTES);
  });

  it('at debug, adds a refusal line beside each refused request’s access line and a line per failed upstream attempt, and no line holds the prompt or either key', async () => {
    const prompt = `Remind the marmalade cartographer about the ${randomBytes(8).toString('hex')} glacier survey`;
    const unknownKey = generateApiKey();
    const messages = INTERFACES[1];
    const send = (key: string, body: unknown) =>
      fetch(`${server.url}${messages.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
        body: JSON.stringify(body),
      });
    const served = await send(server.demoKey, messages.body('signalbox-sim', prompt));
    const { max_tokens: _dropped, ...withoutMaxTokens } = messages.body('signalbox-sim', prompt);
    const badBody = await send(server.demoKey, withoutMaxTokens);
    const badKey = await send(unknownKey, messages.body('signalbox-sim', prompt));
    const overloaded = await send(server.demoKey, messages.body('signalbox-sim', `[[sim:status=503]] [[sim:echo-prompt]] ${prompt}`));
    await Promise.all([served.text(), badBody.text(), badKey.text(), overloaded.text()]);

    expect([served.status, badBody.status, badKey.status, overloaded.status]).toEqual([200, 400, 401, 503]);
    const parsed = async (answer: Response) =>
      (await linesOf(answer.headers.get('request-id') ?? '')).map(line => JSON.parse(line) as Record<string, unknown>);
    const [servedLines, badBodyLines, badKeyLines, overloadedLines] = await Promise.all([parsed(served), parsed(badBody), parsed(badKey), parsed(overloaded)]);
    const demoPrefix = server.demoKey.slice(0, 12);
    expect(servedLines.find(line => line.msg === 'http request')).toMatchObject({
      level: 30,
      keyPrefix: demoPrefix,
      route: 'signalbox-sim',
      upstream: 'simulator-messages',
      status: 200,
      outcome: 'completed',
      attempts: 1,
      stream: false,
      inputTokens: expect.any(Number),
      outputTokens: expect.any(Number),
    });
    // A served request's only debug line is the example server's usage line, once its charge is committed.
    expect(servedLines.filter(line => line.level === 20)).toEqual([
      expect.objectContaining({ msg: 'usage recorded', usage: expect.objectContaining({ status: 200, costMicros: expect.any(Number) }) }),
    ]);
    expect(badBodyLines.find(line => line.msg === 'http request')).toMatchObject({ level: 30, keyPrefix: demoPrefix, status: 400, code: 'INVALID_REQUEST' });
    expect(badBodyLines.find(line => line.level === 20)).toMatchObject({
      msg: 'request refused',
      code: 'INVALID_REQUEST',
      protocolHeaders: { 'x-api-key': `${demoPrefix}…`, 'anthropic-version': '2023-06-01' },
    });
    expect(badKeyLines.find(line => line.msg === 'http request')).toMatchObject({ level: 30, status: 401, code: 'API_KEY_INVALID' });
    expect(badKeyLines.find(line => line.msg === 'http request')).not.toHaveProperty('keyPrefix');
    expect(badKeyLines.find(line => line.level === 20)).toMatchObject({
      msg: 'request refused',
      code: 'API_KEY_INVALID',
      protocolHeaders: { 'x-api-key': `${unknownKey.slice(0, 12)}…` },
    });
    expect(overloadedLines.find(line => line.msg === 'http request')).toMatchObject({ level: 30, status: 503, code: 'UPSTREAM_OVERLOADED', attempts: 3 });
    expect(overloadedLines.filter(line => line.msg === 'upstream attempt failed')).toEqual(
      [1, 2, 3].map(attempt =>
        expect.objectContaining({
          level: 20,
          attempt,
          route: 'signalbox-sim',
          upstream: expect.stringMatching(/^simulator-(messages|responses)$/),
          code: 'UPSTREAM_OVERLOADED',
          upstreamError: expect.objectContaining({ status: 503, message: { chars: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{16}$/) } }),
          retried: attempt < 3,
        }),
      ),
    );
    for (const line of lines()) {
      expect(line).not.toContain(prompt.slice(20, 44));
      expect(line).not.toContain(server.demoKey);
      expect(line).not.toContain(unknownKey);
    }
    expect(server.audit.findLeaks()).toEqual([]);
  });
});

describe('the example server at LOG_LEVEL=info', () => {
  it('writes the access lines of a refused request and of a retried one, one line for a served request, and no debug line', async () => {
    const written: Record<string, unknown>[] = [];
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        for (const line of String(chunk).split('\n')) if (line !== '') written.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    });
    const server = await startTestGateway({ logger: createLogger({ level: 'info', destination }) });
    try {
      const responses = INTERFACES[0];
      const response = await post(server, responses, { model: 'signalbox-sim' });
      const retried = await post(server, responses, { model: 'signalbox-sim', input: '[[sim:status=503]] hello' });
      const served = await post(server, responses, { model: 'signalbox-sim', input: 'hello' });
      const servedId = served.requestId;
      const requestIds = [response.requestId, retried.requestId];
      const accessLines = () => written.filter(line => line.msg === 'http request' && requestIds.includes(line.requestId as string));
      const servedLines = () => written.filter(line => line.requestId === servedId || (line.usage as { requestId?: string } | undefined)?.requestId === servedId);
      for (let turn = 0; turn < 100 && (accessLines().length < 2 || servedLines().length < 1); turn += 1) await new Promise(resolve => setImmediate(resolve));
      // The test gateway commits the ledger on the next turn: a few more turns and the charge is recorded.
      for (let turn = 0; turn < 10; turn += 1) await new Promise(resolve => setImmediate(resolve));

      expect([response.status, retried.status]).toEqual([400, 503]);
      expect(accessLines()).toEqual([
        expect.objectContaining({ level: 30, msg: 'http request', status: 400, code: 'INVALID_REQUEST', keyPrefix: server.demoKey.slice(0, 12) }),
        expect.objectContaining({ level: 30, msg: 'http request', status: 503, code: 'UPSTREAM_OVERLOADED', attempts: 3 }),
      ]);
      // At info, a served request writes its access line and nothing else (its charge is logged at debug).
      expect(servedLines()).toEqual([expect.objectContaining({ level: 30, msg: 'http request', status: 200, outcome: 'completed' })]);
      expect(written.filter(line => line.level === 20)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
