import type { IncomingMessage, Server } from 'node:http';
import { Writable } from 'node:stream';
import { CLIENT_VALUE_MAX_CHARS, secretRecogniser, type Codec } from '@signalbox/core';
import type { AccountStore } from '@signalbox/accounts';

/** Strings shorter than this are too common to prove a leak (`"hi"` appears in any log). */
const MIN_SECRET_LENGTH = 12;
/**
 * Prompts are also checked piece by piece: every aligned run of this many characters is looked
 * for, so a log line that quotes part of a prompt (an upstream repeating some of the input, a
 * message cut short) is a leak too. Any quote of at least twice this length contains one whole run.
 */
const FRAGMENT_LENGTH = 24;
/**
 * A fragment with fewer different characters than this (a run of NULs, of spaces, of one letter)
 * proves nothing: the same run turns up in unrelated text, such as the model ID a log keeps.
 */
const MIN_FRAGMENT_VARIETY = 8;
/**
 * Body fields that name things rather than carry prompt text (model IDs are logged on purpose; a
 * key's `allowedModels`, set through the admin API or the panel, are model IDs too; so are the
 * upstream and protocol names of a config change, which every access line carries).
 */
const NAMING_FIELDS = new Set(['model', 'allowedModels', 'type', 'role', 'name', 'id', 'call_id', 'tool_use_id', 'tool_call_id', 'previous_response_id', 'upstream', 'protocol']);
/** Request headers whose values are credentials: none may appear in a log line (a prefix shorter than a secret may). */
const CREDENTIAL_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'proxy-authorization'];
/** Request bodies larger than this are not kept for the audit (the body-limit tests send 20 MB and more). */
const MAX_CAPTURED_BODY_BYTES = 4 * 1024 * 1024;

/** What an audit checked: the lines it read and the strings (keys, prompts, fragments) it looked for in them. */
export type LogAuditCounts = { lines: number; strings: number; fragments: number };

/**
 * Captures everything a gateway logs, and everything secret it was given: every key presented to
 * the store, every string in every request body the codecs decoded, and every string of every body
 * that reached the server at all (refused ones too, read off the socket). A `model` is logged on
 * purpose, but only up to the length a real model ID has: whatever a client sent beyond that is a
 * secret as well. `findLeaks()` lists the secrets that appear in the captured logs, whole or in
 * part, and anything in them shaped like a secret the product issues or is given (`SECRET_SHAPES`:
 * keys, admin and console tokens, panel session ids, vendor keys), remembered or not, wherever it
 * came from (a path, a header); the gateway's logs must never contain any.
 */
export function createLogAudit() {
  const lines: string[] = [];
  const secrets = new Set<string>();
  const rememberText = (text: string): void => {
    if (text.length >= MIN_SECRET_LENGTH) secrets.add(text);
  };
  // Iterative: a deeply nested body must not overflow the audit's own stack.
  const remember = (value: unknown): void => {
    const pending: unknown[] = [value];
    while (pending.length > 0) {
      const current = pending.pop();
      // A string holding a JSON object (Codex's `client_metadata` values) is audited by its parts,
      // so that a model ID inside it counts as a model ID, as everywhere else.
      const embedded = typeof current === 'string' ? embeddedObject(current) : undefined;
      if (embedded !== undefined) pending.push(embedded);
      else if (typeof current === 'string') rememberText(current);
      else if (Array.isArray(current)) pending.push(...current);
      else if (typeof current === 'object' && current !== null) {
        for (const [field, item] of Object.entries(current)) {
          if (field === 'model' && typeof item === 'string') rememberText(item.slice(CLIENT_VALUE_MAX_CHARS));
          else if (!NAMING_FIELDS.has(field)) pending.push(item);
        }
      }
    }
  };
  const rememberBody = (bytes: Buffer): void => {
    const text = bytes.toString('utf8');
    try {
      remember(JSON.parse(text));
    } catch {
      // Not JSON: only the whole text counts, since its pieces may be JSON syntax the logs also hold.
      rememberText(text);
    }
  };
  let checkedFragments = 0;
  return {
    destination: new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    }),
    remember,
    watchStore(store: AccountStore): AccountStore {
      return {
        ...store,
        findKeyBySecret: secret => (remember(secret), store.findKeyBySecret(secret)),
        findConsoleTokenBySecret: secret => (remember(secret), store.findConsoleTokenBySecret(secret)),
      };
    },
    watchCodecs(codecs: readonly Codec[]): Codec[] {
      return codecs.map(codec => ({
        ...codec,
        decodeRequest: (...args: Parameters<Codec['decodeRequest']>) => (remember(args[0]), codec.decodeRequest(...args)),
      }));
    },
    /**
     * Remembers the body of every request `server` receives, as the parser hands it over (the
     * stream's own `push`), so nothing about how the gateway reads it changes; and the value of
     * every credential header it carries (the token of `Authorization`, `x-api-key`), including
     * those of requests refused before their key reached the store.
     */
    watchServer(server: Server): void {
      server.prependListener('request', (request: IncomingMessage) => {
        for (const name of CREDENTIAL_HEADERS) {
          const value = request.headers[name];
          if (typeof value === 'string') rememberText(value.replace(/^\S+\s+/, ''));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        const push = request.push.bind(request);
        request.push = (chunk: unknown, encoding?: BufferEncoding) => {
          if (Buffer.isBuffer(chunk) && size <= MAX_CAPTURED_BODY_BYTES) {
            size += chunk.length;
            chunks.push(chunk);
          }
          return push(chunk, encoding);
        };
        request.once('close', () => {
          if (size > 0 && size <= MAX_CAPTURED_BODY_BYTES) rememberBody(Buffer.concat(chunks));
        });
      });
    },
    lineCount: () => lines.length,
    /** Every line written so far, one log line each, in order. */
    lines: (): string[] => lines.flatMap(chunk => chunk.split('\n')).filter(line => line !== ''),
    /** How much the last `findLeaks()` checked. */
    counts: (): LogAuditCounts => ({ lines: lines.length, strings: secrets.size, fragments: checkedFragments }),
    findLeaks(): string[] {
      const log = lines.join('');
      const whole = [...secrets].filter(secret => log.includes(secret) || log.includes(jsonEscaped(secret)));
      const fragments = fragmentOwners(secrets);
      checkedFragments = fragments.size;
      const partial = new Set<string>();
      for (let index = 0; index + FRAGMENT_LENGTH <= log.length; index += 1) {
        const owner = fragments.get(log.slice(index, index + FRAGMENT_LENGTH));
        if (owner !== undefined && !whole.includes(owner)) partial.add(owner);
      }
      // A shape around a secret found already (`Bearer <it>`) is the same leak.
      const shaped = lines.flatMap(line => secretRecogniser.find(line)).filter(found => !whole.some(secret => found.includes(secret)));
      return [...new Set([...whole, ...partial, ...shaped])];
    },
  };
}

/** The object a string holds as JSON text (`'{"turn_id":"…"}'`), or undefined for any other string. */
function embeddedObject(text: string): object | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** How a string appears inside a JSON log line. */
function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** Every aligned run of `FRAGMENT_LENGTH` characters of each secret (as written and as JSON escapes it), mapped to the secret. */
function fragmentOwners(secrets: ReadonlySet<string>): Map<string, string> {
  const owners = new Map<string, string>();
  for (const secret of secrets) {
    for (const form of new Set([secret, jsonEscaped(secret)])) {
      for (let start = 0; start + FRAGMENT_LENGTH <= form.length; start += FRAGMENT_LENGTH) {
        const fragment = form.slice(start, start + FRAGMENT_LENGTH);
        if (hasVariety(fragment)) owners.set(fragment, secret);
      }
    }
  }
  return owners;
}

/**
 * Whether `fragment` has at least `MIN_FRAGMENT_VARIETY` different code points (as `new Set(fragment)`
 * counts them, a lone surrogate being one), stopping as soon as it has: the audit asks this of
 * every fragment of megabytes of prompts, where building a set each time dominated its cost.
 */
function hasVariety(fragment: string): boolean {
  const seen: number[] = [];
  for (let index = 0; index < fragment.length; index += 1) {
    const codePoint = fragment.codePointAt(index)!;
    if (codePoint > 0xffff) index += 1;
    if (!seen.includes(codePoint)) {
      seen.push(codePoint);
      if (seen.length >= MIN_FRAGMENT_VARIETY) return true;
    }
  }
  return false;
}
