import type { ScriptedAnswer } from './create-scripted-upstream';
import { readFixture } from './read-fixture';

/** A Messages upstream's answer to a request it served (the `messages-answer.json` fixture). */
export const messagesServed: ScriptedAnswer = { body: readFixture('messages-answer.json') };

/** `count` served answers: a credential that serves each request sent to it. */
export function messagesServedMany(count: number): readonly ScriptedAnswer[] {
  return Array.from({ length: count }, () => messagesServed);
}

/** A Messages upstream's error answer: `status`, its error `type`, and any headers. */
export function messagesError(status: number, type: string, headers: Record<string, string> = {}): ScriptedAnswer {
  return { status, headers, body: JSON.stringify({ type: 'error', error: { type, message: `${type} from the upstream` } }) };
}

/** A Messages 429 that tells the credential to wait `retryAfterSeconds`. */
export function messagesRateLimited(retryAfterSeconds: number): ScriptedAnswer {
  return messagesError(429, 'rate_limit_error', { 'retry-after': String(retryAfterSeconds) });
}
