import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries a webhook's signature. */
export const WEBHOOK_SIGNATURE_HEADER = 'signalbox-signature';

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` under the webhook's secret: the scheme
 * Stripe uses (https://docs.stripe.com/webhooks#verify-manually), so a receiver checks the body and
 * the time together and refuses a replay of an old delivery.
 */
export function signWebhookPayload(secret: string, timestampSeconds: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${digest}`;
}

/**
 * Whether `header` signs `body` under `secret`, made at most `toleranceSeconds` from `nowSeconds`;
 * compares in constant time. What a receiver runs (the gateway's tests do).
 */
export function verifyWebhookSignature(input: {
  secret: string;
  header: string | undefined;
  body: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): boolean {
  const parts = new Map((input.header ?? '').split(',').map(part => part.split('=', 2) as [string, string]));
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isSafeInteger(timestamp) || given === undefined) return false;
  if (Math.abs(input.nowSeconds - timestamp) > (input.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhookPayload(input.secret, timestamp, input.body).split('v1=')[1]!, 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
