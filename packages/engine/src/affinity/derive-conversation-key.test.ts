import type { GenerationRequest } from '@signalbox/core';
import { deriveConversationKey, FIRST_TURNS_PREFIX_CHARACTERS, firstTurnsKey, type ConversationKeyInput } from './derive-conversation-key';

const request = (fields: Partial<GenerationRequest> = {}): GenerationRequest => ({
  model: 'client-model',
  system: [{ type: 'text', text: 'You are terse.' }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'First question' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'First answer' }] },
    { role: 'user', content: [{ type: 'text', text: 'Second question' }] },
  ],
  stream: false,
  tools: [{ name: 'read_file', description: 'Reads a file', inputSchema: { type: 'object' } }],
  ...fields,
});

const input = (fields: Partial<ConversationKeyInput> = {}): ConversationKeyInput => ({
  accountId: 'acct_one',
  keyId: 'key_one',
  route: 'client-model',
  request: request(),
  headers: {},
  chainKey: undefined,
  ...fields,
});

const CLAUDE_CODE_SESSION = '0f3c2b8e-5d71-4a7e-9c1b-2f6e8d4a9b10';
/** How Claude Code 2.x fills Messages `metadata.user_id`: a JSON object naming its session. */
const claudeCodeUser = JSON.stringify({ device_id: 'd'.repeat(64), account_uuid: '', session_id: CLAUDE_CODE_SESSION });

describe('deriveConversationKey', () => {
  it('is a short opaque base64url value', () => {
    expect(deriveConversationKey(input())).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('takes the key kept with the previous_response_id chain before anything else', () => {
    const chained = input({ chainKey: 'keptWithTheChainKey123', request: request({ promptCacheKey: 'pck' }), headers: { session_id: 'abc' } });
    expect(deriveConversationKey(chained)).toBe('keptWithTheChainKey123');
  });

  it('takes prompt_cache_key before a session id, and a session id before the first turns', () => {
    const byCacheKey = deriveConversationKey(input({ request: request({ promptCacheKey: 'conversation-1' }), headers: { session_id: 's-1' } }));
    expect(byCacheKey).toBe(deriveConversationKey(input({ request: request({ promptCacheKey: 'conversation-1' }), headers: { session_id: 's-2' } })));
    const bySession = deriveConversationKey(input({ headers: { session_id: 's-1' } }));
    expect(bySession).not.toBe(byCacheKey);
    // The session id decides, whatever the turns say.
    expect(bySession).toBe(deriveConversationKey(input({ headers: { session_id: 's-1' }, request: request({ system: [] }) })));
    expect(bySession).not.toBe(deriveConversationKey(input()));
  });

  it("reads Codex's session_id (and older conversation_id) headers and Claude Code's session header and metadata alike", () => {
    const codex = deriveConversationKey(input({ headers: { session_id: CLAUDE_CODE_SESSION } }));
    expect(deriveConversationKey(input({ headers: { conversation_id: CLAUDE_CODE_SESSION } }))).toBe(codex);
    expect(deriveConversationKey(input({ headers: { 'x-claude-code-session-id': CLAUDE_CODE_SESSION } }))).toBe(codex);
    expect(deriveConversationKey(input({ request: request({ user: claudeCodeUser }) }))).toBe(codex);
    const legacy = `user_${'a'.repeat(64)}_account_11111111-2222-3333-4444-555555555555_session_${CLAUDE_CODE_SESSION}`;
    expect(deriveConversationKey(input({ request: request({ user: legacy }) }))).toBe(codex);
    // A user id that names no session leaves the first turns to decide.
    expect(deriveConversationKey(input({ request: request({ user: 'end-user-42' }) }))).toBe(deriveConversationKey(input()));
  });

  it("scopes client-sent ids by account: one account's session or cache key never names another's conversation", () => {
    for (const fields of [{ headers: { session_id: 's-1' } }, { request: request({ promptCacheKey: 'shared' }) }]) {
      expect(deriveConversationKey(input({ ...fields, accountId: 'acct_one' }))).not.toBe(deriveConversationKey(input({ ...fields, accountId: 'acct_two' })));
    }
  });

  it('gives every turn of a conversation the key of its first turns, and tells conversations and keys apart', () => {
    const firstTurn = request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'First question' }] }] });
    expect(deriveConversationKey(input({ request: firstTurn }))).toBe(deriveConversationKey(input()));
    const other = request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Another question' }] }] });
    expect(deriveConversationKey(input({ request: other }))).not.toBe(deriveConversationKey(input()));
    expect(deriveConversationKey(input({ keyId: 'key_two' }))).not.toBe(deriveConversationKey(input()));
    expect(deriveConversationKey(input({ route: 'other-model' }))).not.toBe(deriveConversationKey(input()));
    expect(deriveConversationKey(input({ request: request({ tools: [] }) }))).not.toBe(deriveConversationKey(input()));
    expect(deriveConversationKey(input({ request: request({ system: [{ type: 'text', text: 'You are verbose.' }] }) }))).not.toBe(
      deriveConversationKey(input()),
    );
  });
});

describe('firstTurnsKey', () => {
  const long = (tail: string) => request({ system: [{ type: 'text', text: 'x'.repeat(FIRST_TURNS_PREFIX_CHARACTERS) + tail }] });
  const keyOf = (fields: Partial<GenerationRequest>) => firstTurnsKey({ keyId: 'key_one', route: 'client-model', request: request(fields) });

  it('reads a bounded prefix of each part: text past it counts only by its length', () => {
    const base = { keyId: 'key_one', route: 'client-model' };
    expect(firstTurnsKey({ ...base, request: long('abc') })).toBe(firstTurnsKey({ ...base, request: long('xyz') }));
    expect(firstTurnsKey({ ...base, request: long('abc') })).not.toBe(firstTurnsKey({ ...base, request: long('abcd') }));
  });

  it('counts system turns before the first user message as system text, and later turns not at all', () => {
    const asTurn = keyOf({ system: [], messages: [{ role: 'system', content: [{ type: 'text', text: 'You are terse.' }] }, ...request().messages] });
    expect(asTurn).toBe(keyOf({}));
    expect(keyOf({ messages: [...request().messages, { role: 'user', content: [{ type: 'text', text: 'Third question' }] }] })).toBe(keyOf({}));
  });

  it('reads the media of the first user message by its URL or the start of its data', () => {
    const image = (url: string) => keyOf({ messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url } }] }] });
    expect(image('https://example.com/a.png')).toBe(image('https://example.com/a.png'));
    expect(image('https://example.com/a.png')).not.toBe(image('https://example.com/b.png'));
  });
});
