import type { IncomingMessage } from 'node:http';
import { generateAdminToken, generateApiKey, generateConsoleToken, keyPrefix } from '@signalbox/accounts';
import { createSessionStore } from '@signalbox/panel';
import { createLogAudit } from './create-log-audit';
import { listenOnLoopback, type LoopbackServer } from './listen-on-loopback';

const PROMPT = 'Tell me everything about the quiet lighthouse keeper and her forty-two cats, please.';

function logLine(audit: ReturnType<typeof createLogAudit>, fields: Record<string, unknown>): void {
  audit.destination.write(`${JSON.stringify({ level: 30, ...fields })}\n`);
}

/** A server watched by `audit` that reads each request's body and answers `status`, as a gateway refusing it would. */
async function startRefusingServer(audit: ReturnType<typeof createLogAudit>, status: number): Promise<LoopbackServer> {
  const loopback = await listenOnLoopback((request: IncomingMessage, response) => {
    request.resume();
    request.once('end', () => response.writeHead(status).end());
  });
  audit.watchServer(loopback.server);
  return loopback;
}

describe('the log audit', () => {
  it('finds a prompt logged whole', () => {
    const audit = createLogAudit();
    audit.remember({ model: 'signalbox-sim', input: PROMPT });
    logLine(audit, { message: `upstream said: ${PROMPT}` });
    expect(audit.findLeaks()).toEqual([PROMPT]);
  });

  it('finds a prompt of which a log line quotes only a part (as an upstream error message does)', () => {
    const audit = createLogAudit();
    audit.remember({ input: [{ role: 'user', content: PROMPT }] });
    logLine(audit, { message: `Invalid request near "${PROMPT.slice(17, 70)}"` });
    expect(audit.findLeaks()).toEqual([PROMPT]);
  });

  it('finds a prompt with quotes and line breaks in its JSON-escaped form', () => {
    const prompt = 'He said "stop"\nand then "go" to the very patient orchestra.';
    const audit = createLogAudit();
    audit.remember({ input: prompt });
    logLine(audit, { message: prompt.slice(5) });
    expect(audit.findLeaks()).toEqual([prompt]);
  });

  it('lets a model ID be logged up to 200 characters, and finds any of it beyond', () => {
    const model = `${'abcdefghij'.repeat(20)}${PROMPT}`;
    const audit = createLogAudit();
    audit.remember({ model, input: 'short' });
    logLine(audit, { usage: { model: model.slice(0, 200) } });
    expect(audit.findLeaks()).toEqual([]);
    logLine(audit, { usage: { model } });
    expect(audit.findLeaks()).toEqual([PROMPT]);
  });

  it('does not take a run of one repeated character for a piece of a prompt', () => {
    const audit = createLogAudit();
    audit.remember({ input: `<1>${'\u0000'.repeat(40)}b` });
    logLine(audit, { usage: { model: `<2>${'\u0000'.repeat(40)}c` } });
    expect(audit.findLeaks()).toEqual([]);
  });

  it('counts a fragment’s variety in code points: seven different ones prove nothing, eight do', () => {
    const seven = `${'😀'.repeat(6)}${'abcdef'.repeat(2)}`; // 24 UTF-16 units, 7 code points
    const eight = `${'😀'.repeat(6)}abcdefg${'a'.repeat(5)}`; // 24 UTF-16 units, 8 code points
    for (const [fragment, leaks] of [[seven, false], [eight, true]] as const) {
      const audit = createLogAudit();
      const prompt = `${fragment} and then the rest of the prompt`;
      audit.remember({ input: prompt });
      logLine(audit, { message: `quoted: ${fragment}` });
      expect(audit.findLeaks()).toEqual(leaks ? [prompt] : []);
    }
  });

  it('reports what it checked: lines, strings and fragments', () => {
    const audit = createLogAudit();
    audit.remember([PROMPT, 'a key-shaped-secret']);
    logLine(audit, { message: 'nothing to see' });
    logLine(audit, { message: 'still nothing' });
    expect(audit.findLeaks()).toEqual([]);
    expect(audit.counts()).toEqual({ lines: 2, strings: 2, fragments: 3 });
  });

  it('remembers the body of a request the server refused before reading it as JSON', async () => {
    const audit = createLogAudit();
    const server = await startRefusingServer(audit, 401);
    try {
      const response = await fetch(`${server.url}/v1/responses`, { method: 'POST', body: JSON.stringify({ input: PROMPT }) });
      expect(response.status).toBe(401);
      await new Promise(resolve => setImmediate(resolve));
      logLine(audit, { message: PROMPT.slice(0, 60) });
      expect(audit.findLeaks()).toEqual([PROMPT]);
    } finally {
      await server.close();
    }
  });

  it('remembers the credential headers of a request refused before its key was looked up, scheme aside', async () => {
    const audit = createLogAudit();
    const server = await startRefusingServer(audit, 400);
    const bearer = `bearer-${'Q7'.repeat(12)}`;
    const headerKey = `header-${'W3'.repeat(12)}`;
    try {
      const response = await fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'x-api-key': headerKey },
        body: '{}',
      });
      expect(response.status).toBe(400);
      logLine(audit, { protocolHeaders: { authorization: 'Bearer [redacted]', 'x-api-key': headerKey.slice(0, 12) } });
      expect(audit.findLeaks()).toEqual([]);
      logLine(audit, { protocolHeaders: { authorization: `Bearer ${bearer}`, 'x-api-key': headerKey } });
      expect(audit.findLeaks().sort()).toEqual([bearer, headerKey].sort());
    } finally {
      await server.close();
    }
  });

  describe('finds, remembered or not, every kind of secret the product issues, made by its own generators', () => {
    const session = createSessionStore().create({ kind: 'admin', actor: 'admin-token' });
    const issued = [
      ['an API key', generateApiKey()],
      ['an admin token', generateAdminToken()],
      ['an account console token', generateConsoleToken()],
      ['a panel session id', session.id],
      ['a panel CSRF token', session.session.csrfToken],
    ] as const;

    it.each(issued)('%s in a path, a query, a header or a message', (_kind, secret) => {
      for (const fields of [
        { path: `/v1/models/${secret}` },
        { path: `/v1/responses?note=${secret}` },
        { headers: { 'user-agent': `agent/1.0 (${secret})`, accept: secret } },
        { message: `The model '${secret}' does not exist.` },
      ]) {
        const audit = createLogAudit();
        logLine(audit, { msg: 'http request', ...fields });
        expect(audit.findLeaks()).toEqual([secret]);
      }
    });

    it('and takes none of their visible prefixes, as the logs show them, for a secret', () => {
      const audit = createLogAudit();
      const key = generateApiKey();
      logLine(audit, { keyPrefix: keyPrefix(key), protocolHeaders: { authorization: `Bearer ${keyPrefix(key)}…`, 'x-api-key': '[redacted]' } });
      logLine(audit, { consoleToken: generateConsoleToken().slice(0, 20), route: 'claude-sonnet-4-5-20250929', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
      expect(audit.findLeaks()).toEqual([]);
    });
  });
});
