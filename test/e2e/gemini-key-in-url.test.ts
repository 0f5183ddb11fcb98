import { startOtlpReceiver, type OtlpReceiver } from '../helpers/start-otlp-receiver';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { parseSSEText, validateGeminiStream } from '../stream-validators';

const PROMPT = 'Name a lighthouse';
const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] });

/**
 * Gemini's clients may send their key in the URL (`?key=`). The gateway reads it there, and no key
 * sent so (the right one, a wrong one of no known shape) comes back in an answer or reaches an
 * access line, a span, a usage record or a ledger row.
 */
describe('a key in the query string', () => {
  let receiver: OtlpReceiver;
  let server: TestGateway;
  const wrongKey = `zq${Math.random().toString(36).slice(2)}Xk${Math.random().toString(36).slice(2)}`;
  const answers: string[] = [];
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    server = await startTestGateway({ tracing: { url: receiver.tracesURL, serviceName: 'signalbox-key-in-url' } });
    server.audit.remember([wrongKey]);
  });
  afterAll(async () => {
    await server?.close(1_000);
    await receiver?.close();
  });

  async function post(path: string) {
    const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await response.text();
    answers.push(text, JSON.stringify([...response.headers]));
    return { status: response.status, text, headers: response.headers };
  }

  it('authenticates with ?key= and streams with alt=sse beside it', async () => {
    const streamed = await post(`/v1beta/models/sim-via-chat:streamGenerateContent?alt=sse&key=${server.demoKey}`);
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(validateGeminiStream(parseSSEText(streamed.text))).toMatchObject({ violations: [], outcome: 'completed' });
    const whole = await post(`/v1/models/sim-via-messages:generateContent?key=${server.demoKey}`);
    expect(whole.status).toBe(200);
  });

  it('refuses a wrong key in the query, an unknown path and an unknown model without quoting the key', async () => {
    const refused = await post(`/v1beta/models/sim-via-chat:generateContent?key=${wrongKey}`);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'API_KEY_INVALID', error: { status: 'UNAUTHENTICATED' } });
    expect((await post(`/v1beta/models/sim-via-chat:nope?key=${server.demoKey}`)).status).toBe(404);
    expect((await post(`/v1beta/models/no-such-model:generateContent?key=${server.demoKey}`)).status).toBe(404);
    const missing = await post('/v1beta/models/sim-via-chat:generateContent');
    expect(JSON.parse(missing.text)).toMatchObject({ code: 'API_KEY_MISSING', error: { message: expect.stringContaining('`key` query parameter') } });
  });

  it('leaves both keys out of every answer, access line, span, usage record and ledger row', async () => {
    const ledger = await fetch(`${server.url}/admin/usage`, { headers: { authorization: `Bearer ${server.adminToken}` } }).then(response => response.text());
    const accessLines = server.audit.lines().filter(line => line.includes('/models/'));
    expect(accessLines.length).toBeGreaterThanOrEqual(6);
    expect(accessLines.some(line => line.includes('key=[redacted]'))).toBe(true);
    await server.close(1_000);
    const sinks = { answers: answers.join('\n'), accessLines: accessLines.join('\n'), spans: receiver.bodies().join('\n'), usage: JSON.stringify(server.recentUsage()), ledger };
    expect(sinks.spans.length).toBeGreaterThan(0);
    for (const [sink, text] of Object.entries(sinks)) {
      for (const key of [server.demoKey, wrongKey]) expect({ sink, leaked: text.includes(key) }).toEqual({ sink, leaked: false });
    }
  });
});
