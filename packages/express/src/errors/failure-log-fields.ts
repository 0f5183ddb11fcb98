import { createHash } from 'node:crypto';
import { boundClientText, GatewayError, secretRecogniser, type SecretRecogniser, type UpstreamErrorDetails } from '@signalbox/core';

/** Upstream `type`/`code` values are short identifiers; anything longer is not one. */
const IDENTIFIER_MAX_CHARS = 100;
/** Enough of the gateway's own wording to say what happened; its quotes of client values are bounded already. */
const MESSAGE_MAX_CHARS = 300;
/** The most of a harmless header's value (a user agent, a version) a log line keeps. */
const HEADER_MAX_CHARS = 200;

/** A header the logs may show (never a credential header), as they show it: scrubbed by `secrets`, then cut short. */
export function loggedHeaderValue(value: string | readonly string[], secrets: SecretRecogniser = secretRecogniser): string {
  return boundClientText(String(value), HEADER_MAX_CHARS, secrets);
}

/**
 * A text that may quote a prompt, as a log line shows it: its length and a short digest, never its
 * words. Two lines about the same upstream message share the digest, so failures can still be
 * grouped and matched against what the client was told.
 */
export function describeTextForLog(text: string): { chars: number; sha256: string } {
  return { chars: text.length, sha256: createHash('sha256').update(text).digest('hex').slice(0, 16) };
}

/**
 * A failure as the logs see it. Upstream messages often quote the request (some providers repeat
 * the offending input, prompt text included), so what an upstream said is logged as its status,
 * `type`, `code` and request id plus the message's length and digest; the client still gets the
 * (scrubbed) words in its error body. Causes (transport errors, bugs) keep their name, `code` and
 * stack frames, but not their message, which may quote a body (`JSON.parse` does).
 */
export function failureLogFields(failure: GatewayError): Record<string, unknown> {
  return {
    code: failure.code,
    status: failure.status,
    ...(failure.upstream && { upstream: upstreamLogFields(failure.upstream) }),
    ...(failure.cause !== undefined && { cause: causeLogFields(failure.cause) }),
  };
}

/** The log message for a failure: the gateway's own words, or only the code when the message carries the upstream's. */
export function failureLogMessage(failure: GatewayError): string {
  if (failure.upstream?.message !== undefined) return `upstream failure (${failure.code})`;
  return boundClientText(failure.message, MESSAGE_MAX_CHARS);
}

/** What went wrong in a piece of the gateway's plumbing (a usage recorder, a cause), safe to log. */
export function causeLogFields(cause: unknown): Record<string, unknown> {
  if (GatewayError.isInstance(cause)) {
    // One level only: a cause's own causes add nothing a reader needs and could form a cycle.
    return { code: cause.code, status: cause.status, ...(cause.upstream && { upstream: upstreamLogFields(cause.upstream) }) };
  }
  if (!(cause instanceof Error)) return { type: typeof cause };
  const code = (cause as { code?: unknown }).code;
  const inner = cause.cause;
  return {
    type: cause.name,
    ...(typeof code === 'string' && { code: boundClientText(code, IDENTIFIER_MAX_CHARS) }),
    message: describeTextForLog(cause.message),
    ...(cause.stack !== undefined && { stack: stackFrames(cause.stack) }),
    // undici wraps the reason (ECONNREFUSED, a timeout) one level down.
    ...(inner !== undefined && !GatewayError.isInstance(inner) && { cause: shallowCauseFields(inner) }),
  };
}

/** What an upstream said about its failure, without its words. */
export function upstreamLogFields(upstream: UpstreamErrorDetails): Record<string, unknown> {
  return {
    ...(upstream.status !== undefined && { status: upstream.status }),
    ...(upstream.type !== undefined && { type: boundClientText(upstream.type, IDENTIFIER_MAX_CHARS) }),
    ...(upstream.code !== undefined && { code: boundClientText(upstream.code, IDENTIFIER_MAX_CHARS) }),
    ...(upstream.requestId !== undefined && { requestId: boundClientText(upstream.requestId, IDENTIFIER_MAX_CHARS) }),
    ...(upstream.message !== undefined && { message: describeTextForLog(upstream.message) }),
  };
}

function shallowCauseFields(cause: unknown): Record<string, unknown> {
  if (!(cause instanceof Error)) return { type: typeof cause };
  const code = (cause as { code?: unknown }).code;
  return {
    type: cause.name,
    ...(typeof code === 'string' && { code: boundClientText(code, IDENTIFIER_MAX_CHARS) }),
    message: describeTextForLog(cause.message),
  };
}

/** The `at …` lines of a stack: where it failed, without the message line above them. */
function stackFrames(stack: string): string {
  return stack
    .split('\n')
    .filter(line => line.trimStart().startsWith('at '))
    .slice(0, 10)
    .map(line => line.trim())
    .join('\n');
}
