import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/start-webhook-receiver';

const SECRET = 'whsec-e2e-receiver-secret-0123456789';

/**
 * The example server with a low-balance alert: a charge that takes an account below the threshold
 * sends one signed webhook (retried after the receiver's 500), further charges below it send none,
 * and the admin API shows the alert as active with every delivery attempt.
 */
describe('alert webhooks from the example server', () => {
  let gateway: TestGateway | undefined;
  let receiver: WebhookReceiver | undefined;
  afterEach(async () => {
    await gateway?.close();
    receiver?.close();
  });

  it('sends a low balance once per crossing, signed, retried after a 500, and lists it with its deliveries', async () => {
    receiver = await startWebhookReceiver(SECRET, [500]);
    gateway = await startTestGateway({
      alerts: { rules: { balanceBelowMicros: 1_000_000 }, webhook: { url: receiver.url, secret: SECRET, firstDelayMs: 1_000 } },
    });
    gateway.audit.remember([SECRET]);
    const { store, url } = gateway;
    const account = await store.createAccount({ name: 'low', balanceMicros: 999_000 });
    const { secret: key } = await store.createKey({ accountId: account.id, name: 'k' });
    const ask = () =>
      fetch(`${url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-via-responses', input: 'hello', max_output_tokens: 16 }),
      }).then(response => response.status);
    expect(await ask()).toBe(200);
    await gateway.alerts!.idle();
    expect(await ask()).toBe(200);
    // The second charge is committed (then checked) once its row is recorded.
    while (gateway.recentUsage().length < 2) await new Promise(resolve => setImmediate(resolve));
    await gateway.alerts!.idle();

    expect(receiver.deliveries).toHaveLength(2);
    expect(receiver.deliveries.every(delivery => delivery.validSignature)).toBe(true);
    const [first, second] = receiver.deliveries;
    expect(first!.body).toEqual(second!.body);
    expect(first!.body).toMatchObject({ type: 'balance.below', data: { accountId: account.id, accountName: 'low', thresholdMicros: 1_000_000 } });
    expect(gateway.sleeps.some(ms => ms >= 500 && ms <= 1_000)).toBe(true);

    const answer = await fetch(`${url}/admin/alerts`, { headers: { authorization: `Bearer ${gateway.adminToken}` } });
    const alerts = (await answer.json()) as { active: Array<{ id: string; type: string }>; deliveries: Array<{ outcome: string; httpStatus: number | null; target: string }> };
    expect(alerts.active).toEqual([expect.objectContaining({ id: first!.body['id'], type: 'balance.below' })]);
    expect(alerts.deliveries.map(delivery => [delivery.outcome, delivery.httpStatus])).toEqual([['delivered', 204], ['retrying', 500]]);
    expect(JSON.stringify(alerts)).not.toContain(SECRET);
  });
});
