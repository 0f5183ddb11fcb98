import { firstHeaderValue, type HeaderMap } from '@signalbox/core';

/**
 * The headers in which coding agents name their session, first found wins: Codex sends `session_id`
 * (older releases `conversation_id` too) on every request of a conversation, Claude Code
 * `X-Claude-Code-Session-Id`.
 * @see https://github.com/openai/codex/blob/main/codex-rs/codex-api/src/requests/headers.rs
 */
export const SESSION_HEADERS = ['session_id', 'conversation_id', 'x-claude-code-session-id'] as const;

/** The longest session id read; a longer value names no session (agents send UUIDs). */
const MAX_SESSION_ID_CHARACTERS = 256;

/** Claude Code before 2.x: `user_<hash>_account_<uuid>_session_<uuid>`. */
const LEGACY_SESSION_SUFFIX = /_session_([0-9a-fA-F-]{8,64})$/;

/**
 * The session id a coding agent sent with the request: one of `SESSION_HEADERS`, else the session
 * Claude Code puts in Messages `metadata.user_id` (the IR's `user`): since 2.x a JSON object whose
 * `session_id` it is, before that a `…_session_<uuid>` suffix. `undefined` when there is none.
 */
export function readClientSession(headers: HeaderMap | undefined, user: string | undefined): string | undefined {
  const header = headers && firstHeaderValue(headers, SESSION_HEADERS);
  if (header !== undefined && header.length > 0 && header.length <= MAX_SESSION_ID_CHARACTERS) return header;
  if (user === undefined || user.length > MAX_SESSION_ID_CHARACTERS * 4) return undefined;
  return user.startsWith('{') ? sessionOfJSON(user) : LEGACY_SESSION_SUFFIX.exec(user)?.[1];
}

/** `session_id` of a JSON object, when it is a usable one. */
function sessionOfJSON(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    const session = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['session_id'] : undefined;
    return typeof session === 'string' && session.length > 0 && session.length <= MAX_SESSION_ID_CHARACTERS ? session : undefined;
  } catch {
    return undefined;
  }
}
