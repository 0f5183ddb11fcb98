import { authHeaders } from '../helpers/read-sse';
import { startTestGateway } from '../helpers/start-test-gateway';
import { parseSSEText, validateMessagesStream } from '../stream-validators';

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

  it('cuts streams still open when the grace period ends', async () => {
    const server = await startTestGateway();
    const response = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authHeaders.messages(server.demoKey) },
      body: JSON.stringify({ model: 'sim-via-chat', max_tokens: 256, stream: true, messages: [{ role: 'user', content: '[[sim:slow=200]] go' }] }),
    });
    const body = response.text().catch(() => 'cut');
    const started = Date.now();
    await server.close(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    const text = await body;
    expect(text === 'cut' || validateMessagesStream(parseSSEText(text)).outcome !== 'completed').toBe(true);
  });
});
