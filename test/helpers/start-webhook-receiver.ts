import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery the receiver got: its JSON body and whether its signature checked out. */
export type ReceivedWebhook = { body: Record<string, unknown>; validSignature: boolean };

export type WebhookReceiver = { url: string; deliveries: ReceivedWebhook[]; close(): void };

/**
 * A webhook receiver on 127.0.0.1 that checks each `signalbox-signature` itself (HMAC-SHA256 of
 * `<t>.<body>` under `secret`) and answers the statuses of `answers` in turn, then 204.
 */
export async function startWebhookReceiver(secret: string, answers: readonly number[]): Promise<WebhookReceiver> {
  const deliveries: ReceivedWebhook[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', chunk => chunks.push(chunk as Buffer));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const fields = Object.fromEntries(String(request.headers['signalbox-signature']).split(',').map(part => part.split('=') as [string, string]));
      const expected = createHmac('sha256', secret).update(`${fields['t']}.${text}`).digest('hex');
      deliveries.push({ body: JSON.parse(text) as Record<string, unknown>, validSignature: fields['v1'] === expected });
      response.statusCode = answers[deliveries.length - 1] ?? 204;
      response.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/signalbox-alerts`, deliveries, close: () => server.close() };
}
