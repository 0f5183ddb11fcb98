import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMemoryAccountStore } from '@signalbox/accounts';
import { deliverWebhook } from './deliver-webhook';
import type { Alert } from './alert';
import { verifyWebhookSignature } from './sign-webhook-payload';

const SECRET = 'whsec-test-secret-of-the-receiver';
const T0 = Date.UTC(2026, 4, 17, 9, 30);

type Received = { body: string; signature: string | undefined; alertId: string | undefined; valid: boolean };

/** A webhook receiver on 127.0.0.1 that checks each signature itself and answers `statuses` in turn (then 200). */
async function startReceiver(statuses: number[], clock: () => number): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', chunk => chunks.push(chunk as Buffer));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = request.headers['signalbox-signature'] as string | undefined;
      const [timestamp, digest] = (signature ?? '').split(',').map(part => part.split('=')[1]);
      const expected = createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex');
      const fresh = Math.abs(Number(timestamp) - Math.floor(clock() / 1000)) <= 300;
      received.push({ body, signature, alertId: request.headers['signalbox-alert-id'] as string | undefined, valid: digest === expected && fresh });
      response.statusCode = statuses[received.length - 1] ?? 200;
      response.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/signalbox?token=abc`, received, server };
}

const alert: Alert = { id: 'alrt_1', type: 'balance.below', createdAt: new Date(T0).toISOString(), data: { accountId: 'acct_1', balanceMicros: 900 } };

describe('deliverWebhook', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.close();
    server = undefined;
  });

  it('signs each attempt, retries a 500 with growing jittered waits, stops at the first 2xx and logs every attempt', async () => {
    let time = T0;
    const receiver = await startReceiver([500, 500], () => time);
    server = receiver.server;
    const waits: number[] = [];
    const store = createMemoryAccountStore({ holdSweepIntervalMs: 0 });
    const delivered = await deliverWebhook({ url: receiver.url, secret: SECRET, firstDelayMs: 2_000 }, alert, {
      now: () => time,
      sleep: async ms => {
        waits.push(ms);
        time += ms;
      },
      random: () => 0.5,
      record: delivery => store.recordAlertDelivery(delivery),
    });
    expect(delivered).toBe(true);
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received.every(request => request.valid && request.alertId === 'alrt_1' && JSON.parse(request.body).id === 'alrt_1')).toBe(true);
    // Each attempt is signed at its own time: a receiver refuses a replayed old one.
    expect(new Set(receiver.received.map(request => request.signature)).size).toBe(3);
    expect(waits).toEqual([1_500, 3_000]);
    const log = await store.listAlertDeliveries({ limit: 10 });
    expect(log.map(entry => [entry.attempt, entry.outcome, entry.httpStatus])).toEqual([[3, 'delivered', 200], [2, 'retrying', 500], [1, 'retrying', 500]]);
    expect(log.every(entry => entry.target === receiver.url.split('?')[0] && !JSON.stringify(entry).includes(SECRET))).toBe(true);
  });

  it('gives up after its attempts, and does not retry a 4xx other than 408 and 429', async () => {
    let time = T0;
    const receiver = await startReceiver([503, 503, 503, 404], () => time);
    server = receiver.server;
    const store = createMemoryAccountStore({ holdSweepIntervalMs: 0 });
    const runtime = { now: () => time, sleep: async (ms: number) => void (time += ms), record: (delivery: Parameters<typeof store.recordAlertDelivery>[0]) => store.recordAlertDelivery(delivery) };
    expect(await deliverWebhook({ url: receiver.url, secret: SECRET, attempts: 3 }, alert, runtime)).toBe(false);
    expect((await store.listAlertDeliveries({ limit: 1 }))[0]).toMatchObject({ attempt: 3, outcome: 'failed', httpStatus: 503 });
    expect(await deliverWebhook({ url: receiver.url, secret: SECRET, attempts: 3 }, { ...alert, id: 'alrt_2' }, runtime)).toBe(false);
    expect(receiver.received).toHaveLength(4);
    expect((await store.listAlertDeliveries({ limit: 1 }))[0]).toMatchObject({ alertId: 'alrt_2', attempt: 1, outcome: 'failed', httpStatus: 404 });
  });

  it('verifyWebhookSignature accepts its own signature and refuses another body, secret or an old time', () => {
    const body = JSON.stringify(alert);
    const header = `t=${T0 / 1000},v1=${createHmac('sha256', SECRET).update(`${T0 / 1000}.${body}`).digest('hex')}`;
    const check = (overrides: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
      verifyWebhookSignature({ secret: SECRET, header, body, nowSeconds: T0 / 1000, ...overrides });
    expect(check({})).toBe(true);
    expect(check({ body: `${body} ` })).toBe(false);
    expect(check({ secret: 'another' })).toBe(false);
    expect(check({ nowSeconds: T0 / 1000 + 301 })).toBe(false);
    expect(check({ header: undefined })).toBe(false);
  });
});
