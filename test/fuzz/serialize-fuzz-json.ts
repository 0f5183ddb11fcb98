import { assertNever } from '@signalbox/core';

/** The raw pieces the fuzzer splices into JSON text: things `JSON.stringify` cannot (or should not) produce. */
export type FragmentKind =
  | 'deep-array'
  | 'deep-object'
  | 'huge-string'
  | 'huge-number'
  | 'big-integer'
  | 'negative-zero'
  | 'invalid-utf8-string'
  | 'nul-string';

/**
 * A leaf written as raw bytes by `serializeFuzzJSON`: deep nesting without recursion, strings too big
 * to print in a counterexample, numbers that overflow, bytes that are not UTF-8. `size` scales it.
 */
export class Fragment {
  constructor(
    readonly kind: FragmentKind,
    readonly size: number,
    /** Makes generated strings unique per case (see `fragmentBytes`). */
    readonly salt = 0,
  ) {}
}

/** A JSON value that may contain `Fragment` leaves. */
export type FuzzJSON = null | boolean | number | string | Fragment | FuzzJSON[] | { [key: string]: FuzzJSON };

/** JSON text (as bytes) for a value with fragments; object keys are written in insertion order, duplicates allowed. */
export function serializeFuzzJSON(value: FuzzJSON): Buffer {
  const pieces: Array<string | Buffer> = [];
  write(value, pieces);
  return Buffer.concat(pieces.map(piece => (typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece)));
}

/** Object text with one key written twice (the first time with `duplicate`), as a parser that keeps the last value sees it. */
export function serializeWithDuplicateKey(
  value: Record<string, FuzzJSON>,
  key: string,
  duplicate: FuzzJSON,
  duplicateFirst: boolean,
): Buffer {
  const pieces: Array<string | Buffer> = ['{'];
  const entries: Array<[string, FuzzJSON]> = Object.entries(value);
  const index = Math.max(
    0,
    entries.findIndex(([name]) => name === key),
  );
  entries.splice(duplicateFirst ? index : index + 1, 0, [key, duplicate]);
  entries.forEach(([name, item], position) => {
    if (position > 0) pieces.push(',');
    pieces.push(JSON.stringify(name), ':');
    write(item, pieces);
  });
  pieces.push('}');
  return Buffer.concat(pieces.map(piece => (typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece)));
}

function write(value: FuzzJSON, pieces: Array<string | Buffer>): void {
  if (value instanceof Fragment) {
    pieces.push(fragmentBytes(value));
    return;
  }
  if (Array.isArray(value)) {
    pieces.push('[');
    value.forEach((item, index) => {
      if (index > 0) pieces.push(',');
      write(item, pieces);
    });
    pieces.push(']');
    return;
  }
  if (typeof value === 'object' && value !== null) {
    pieces.push('{');
    Object.entries(value).forEach(([name, item], index) => {
      if (index > 0) pieces.push(',');
      pieces.push(JSON.stringify(name), ':');
      write(item, pieces);
    });
    pieces.push('}');
    return;
  }
  pieces.push(JSON.stringify(value));
}

function fragmentBytes(fragment: Fragment): string | Buffer {
  const size = fragment.size;
  switch (fragment.kind) {
    case 'deep-array':
      return `${'['.repeat(size)}"deep"${']'.repeat(size)}`;
    case 'deep-object':
      return `${'{"a":'.repeat(size)}1${'}'.repeat(size)}`;
    // Strings are salted, and none is a substring of another, so the log audit cannot mistake a
    // model ID of one case (logged on purpose) for the same string sent as a prompt in another.
    case 'huge-string':
      return JSON.stringify(
        `<${fragment.salt}>${`${size}-`.repeat(Math.ceil(size / (String(size).length + 1)))}`,
      );
    case 'huge-number':
      return `1e${size}`;
    case 'big-integer':
      return '9'.repeat(Math.max(1, Math.min(size, 5000)));
    case 'negative-zero':
      return '-0';
    case 'invalid-utf8-string':
      return Buffer.concat([
        Buffer.from(`"<${fragment.salt}>ok`),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        Buffer.from('"'),
      ]);
    case 'nul-string':
      return JSON.stringify(`<${fragment.salt}>a\u0000${'\u0000'.repeat(size % 64)}b`);
    default:
      return assertNever(fragment.kind, 'fragment kind');
  }
}
