import { createHash, type Hash } from 'node:crypto';
import type { GenerationRequest, HeaderMap, Message } from '@signalbox/core';
import { readClientSession } from './read-client-session';

/** How many characters of each part of a request's first turns the fallback key reads; the rest counts only by its length. */
export const FIRST_TURNS_PREFIX_CHARACTERS = 4096;

/** How many characters of a client-sent id (a prompt cache key, a session id) are hashed; the rest counts by its length. */
const CLIENT_ID_PREFIX_CHARACTERS = 1024;

/** The length of a conversation key: 22 base64url characters, 132 bits of a SHA-256. */
const KEY_CHARACTERS = 22;

/** What a request's conversation key is derived from. */
export type ConversationKeyInput = {
  accountId: string;
  keyId: string;
  /** The configured model ID of the route. */
  route: string;
  request: GenerationRequest;
  headers: HeaderMap | undefined;
  /** The key the response named by `previous_response_id` was kept with, when it has one. */
  chainKey: string | undefined;
};

/**
 * The key of the conversation a request belongs to, short and opaque, in order: the key of the
 * `previous_response_id` chain it continues (kept with each stored response, so every turn of a
 * chain has its first turn's key); else its `prompt_cache_key`; else the session id its agent sent
 * (`readClientSession`); else the fallback of `firstTurnsKey`. Client-sent ids are hashed with the
 * account, so one account's ids never name another account's conversation.
 */
export function deriveConversationKey(input: ConversationKeyInput): string {
  if (input.chainKey !== undefined) return input.chainKey;
  const { accountId, request } = input;
  if (request.promptCacheKey !== undefined) return clientIdKey('prompt-cache-key', accountId, request.promptCacheKey);
  const session = readClientSession(input.headers, request.user);
  if (session !== undefined) return clientIdKey('session', accountId, session);
  return firstTurnsKey(input);
}

function clientIdKey(kind: string, accountId: string, id: string): string {
  const hash = createHash('sha256');
  feed(hash, kind);
  feed(hash, accountId);
  feedBounded(hash, id, CLIENT_ID_PREFIX_CHARACTERS);
  return digestOf(hash);
}

/**
 * The fallback key: a hash of the key id, the route and the request's first turns — its system
 * text (with the system turns before its first user turn), its tools (names and descriptions) and
 * its first user message — each read up to `FIRST_TURNS_PREFIX_CHARACTERS` and counted whole only by
 * its length, so the work stays bounded however long the prompt (no serialisation of the request).
 * Every turn of a conversation that resends the same beginning gets the same key.
 */
export function firstTurnsKey(input: Pick<ConversationKeyInput, 'keyId' | 'route' | 'request'>): string {
  const { request } = input;
  const hash = createHash('sha256');
  feed(hash, 'first-turns');
  feed(hash, input.keyId);
  feed(hash, input.route);
  const system = new BoundedSection(hash);
  for (const part of request.system) system.add(part.text);
  const firstUser = request.messages.findIndex(message => message.role === 'user');
  for (let index = 0; index < firstUser; index += 1) {
    const message = request.messages[index]!;
    if (message.role === 'system') for (const part of message.content) system.add(part.text);
  }
  system.end();
  const tools = new BoundedSection(hash);
  for (const tool of request.tools ?? []) {
    tools.add(tool.name);
    tools.add(tool.description ?? '');
  }
  tools.end(request.tools?.length ?? 0);
  const user = new BoundedSection(hash);
  if (firstUser >= 0) addUserContent(user, request.messages[firstUser]!);
  user.end();
  return digestOf(hash);
}

/** The text of a user message's parts, and what names its media (a URL, the start of inline data). */
function addUserContent(section: BoundedSection, message: Message): void {
  for (const part of message.content) {
    if (part.type === 'text') section.add(part.text);
    else if (part.type === 'image' || part.type === 'file') {
      section.add(part.type);
      section.add(part.source.kind === 'url' ? part.source.url : part.source.data);
    }
  }
}

/** One section of the fallback hash: its texts up to the prefix budget, then its total length (and a count). */
class BoundedSection {
  private remaining = FIRST_TURNS_PREFIX_CHARACTERS;
  private length = 0;

  constructor(private readonly hash: Hash) {}

  add(text: string): void {
    this.length += text.length;
    if (this.remaining <= 0) return;
    const taken = text.length <= this.remaining ? text : text.slice(0, this.remaining);
    this.remaining -= taken.length;
    this.hash.update(taken);
    this.hash.update('\u0000');
  }

  end(count = 0): void {
    feed(this.hash, `${this.length}/${count}`);
  }
}

/** A field, length-prefixed so that no two sequences of fields hash alike. */
function feed(hash: Hash, value: string): void {
  hash.update(`${value.length}:`);
  hash.update(value);
}

function feedBounded(hash: Hash, value: string, limit: number): void {
  feed(hash, value.length <= limit ? value : value.slice(0, limit));
  feed(hash, String(value.length));
}

function digestOf(hash: Hash): string {
  return hash.digest('base64url').slice(0, KEY_CHARACTERS);
}
