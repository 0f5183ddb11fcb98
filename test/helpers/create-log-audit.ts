import { Writable } from 'node:stream';
import type { Codec } from '@switchyard/core';
import type { AccountStore } from '@switchyard/accounts';

/** Strings shorter than this are too common to prove a leak (`"hi"` appears in any log). */
const MIN_SECRET_LENGTH = 12;
/** Body fields that name things rather than carry prompt text (model IDs are logged on purpose). */
const NAMING_FIELDS = new Set(['model', 'type', 'role', 'name', 'id', 'call_id', 'tool_use_id', 'tool_call_id']);

/**
 * Captures everything a gateway logs, and everything secret it was given: every key presented to
 * the store and every string in every request body the codecs decoded. `findLeaks()` lists the
 * secrets that appear in the captured logs; the gateway's logs must never contain any.
 */
export function createLogAudit() {
  const lines: string[] = [];
  const secrets = new Set<string>();
  // Iterative: a deeply nested body must not overflow the audit's own stack.
  const remember = (value: unknown): void => {
    const pending: unknown[] = [value];
    while (pending.length > 0) {
      const current = pending.pop();
      if (typeof current === 'string') {
        if (current.length >= MIN_SECRET_LENGTH) secrets.add(current);
      } else if (Array.isArray(current)) pending.push(...current);
      else if (typeof current === 'object' && current !== null) {
        for (const [field, item] of Object.entries(current)) if (!NAMING_FIELDS.has(field)) pending.push(item);
      }
    }
  };
  return {
    destination: new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    }),
    remember,
    watchStore(store: AccountStore): AccountStore {
      return { ...store, findKeyBySecret: secret => (remember(secret), store.findKeyBySecret(secret)) };
    },
    watchCodecs(codecs: readonly Codec[]): Codec[] {
      return codecs.map(codec => ({
        ...codec,
        decodeRequest: (...args: Parameters<Codec['decodeRequest']>) => (remember(args[0]), codec.decodeRequest(...args)),
      }));
    },
    lineCount: () => lines.length,
    findLeaks(): string[] {
      const log = lines.join('');
      return [...secrets].filter(secret => log.includes(secret) || log.includes(JSON.stringify(secret).slice(1, -1)));
    },
  };
}
