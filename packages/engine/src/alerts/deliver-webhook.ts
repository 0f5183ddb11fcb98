import { createId } from '@signalbox/core';
import type { AlertDelivery } from '@signalbox/accounts';
import type { Alert } from './alert';
import { signWebhookPayload, WEBHOOK_SIGNATURE_HEADER } from './sign-webhook-payload';

/** Where alerts are sent, and how hard the gateway tries. */
export type WebhookTarget = {
  url: string;
  /** The HMAC key of the signature header; never logged, never stored. */
  secret: string;
  /** Attempts in all, the first included. Default 6. */
  attempts?: number;
  /** The wait before the second attempt; each next one doubles, up to `maxDelayMs`. Default 1 000 ms. */
  firstDelayMs?: number;
  /** Default 60 000 ms. */
  maxDelayMs?: number;
  /** How long one attempt may take. Default 10 000 ms. */
  timeoutMs?: number;
};

/** What delivery runs on: the clock, randomness and transport, injectable for tests. */
export type WebhookRuntime = {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1): the jitter. Default `Math.random`. */
  random?: () => number;
  /** Sends one attempt; default the global `fetch`. Resolves with the receiver's status. */
  send?: (url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<number>;
  /** Keeps each attempt (the store's delivery log). */
  record(delivery: AlertDelivery): Promise<void>;
};

/**
 * Delivers one alert: a POST of its JSON, signed anew at each attempt (`signalbox-signature`),
 * retried after a network failure, a timeout, a 408, a 429 or a 5xx with exponential backoff and
 * jitter (each wait between half and all of the doubled delay), until a 2xx or the attempts run out.
 * Every attempt is recorded; resolves with whether it was delivered.
 */
export async function deliverWebhook(target: WebhookTarget, alert: Alert, runtime: WebhookRuntime): Promise<boolean> {
  const attempts = target.attempts ?? 6;
  const body = JSON.stringify(alert);
  const send = runtime.send ?? sendWithFetch;
  let delay = target.firstDelayMs ?? 1_000;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const time = runtime.now();
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Signalbox-Alerts',
      'signalbox-alert-id': alert.id,
      [WEBHOOK_SIGNATURE_HEADER]: signWebhookPayload(target.secret, Math.floor(time / 1000), body),
    };
    const answer = await send(target.url, { headers, body, signal: AbortSignal.timeout(target.timeoutMs ?? 10_000) }).then(
      status => ({ status, error: status >= 200 && status < 300 ? null : `answered ${status}` }),
      (error: unknown) => ({ status: null, error: describeFailure(error) }),
    );
    const delivered = answer.error === null;
    const retry = !delivered && attempt < attempts && (answer.status === null || isRetryableStatus(answer.status));
    await runtime.record({
      id: createId('adl_'), alertId: alert.id, alertType: alert.type, target: withoutQuery(target.url), attempt,
      outcome: delivered ? 'delivered' : retry ? 'retrying' : 'failed', httpStatus: answer.status, error: answer.error, time,
    }).catch(() => undefined);
    if (!retry) return delivered;
    await runtime.sleep(Math.round(delay * (0.5 + (runtime.random ?? Math.random)() / 2)));
    delay = Math.min(delay * 2, target.maxDelayMs ?? 60_000);
  }
  return false;
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

async function sendWithFetch(url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal }): Promise<number> {
  const response = await fetch(url, { method: 'POST', ...init, redirect: 'manual' });
  await response.body?.cancel();
  return response.status;
}

/** A failure's kind in a few words: never the URL (it may carry a token) nor anything the receiver sent. */
function describeFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timed out';
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === 'string' ? `no answer (${code.slice(0, 40)})` : 'no answer';
}

/** The URL's origin and path: its query (which may hold a token) is not kept. */
function withoutQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
