const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** The characters that may follow a backslash in a JSON string: `"` `\` `/` `b` `f` `n` `r` `t` `u`. */
const ESCAPABLE = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74, 0x75]);
const HEX = /^[0-9a-fA-F]{4}$/;

/**
 * `text` (one JSON value) with the string at `path` (member names from the top, e.g.
 * `['message', 'model']`) replaced by `literal`, an already-encoded JSON string
 * (`JSON.stringify(value)`); every other character is kept as it was. `undefined` when `text` is not
 * JSON (the grammar of RFC 8259, checked to the end) or the path does not lead to a string: a member
 * is absent, a value on the way is not an object, or the value is not a string. Of members repeated
 * under one name (which RFC 8259 leaves undefined), the first is replaced.
 *
 * It reads the text once and builds nothing, so a stream can put the client's model into every
 * frame it forwards for a small part of what parsing and re-serialising the frame costs.
 * @see https://www.rfc-editor.org/rfc/rfc8259
 */
export function spliceJSONString(text: string, path: readonly string[], literal: string): string | undefined {
  const scan: Scan = { text, path, position: 0, start: -1, end: -1 };
  let valid: boolean;
  try {
    valid = readValue(scan, 0) && skipWhitespace(scan) === text.length;
  } catch {
    // Nesting deeper than the call stack: not worth splicing; the caller parses the text instead.
    valid = false;
  }
  if (!valid || scan.start < 0) return undefined;
  return text.slice(0, scan.start) + literal + text.slice(scan.end);
}

/** One scan's state: where it is, and where the string at the path starts and ends once found. */
type Scan = { text: string; path: readonly string[]; position: number; start: number; end: number };

/**
 * Reads the value at the scan's position. `matched` is how many names of the path lead to it
 * (-1 once off the path): a string reached by all of them is the one to replace.
 */
function readValue(scan: Scan, matched: number): boolean {
  skipWhitespace(scan);
  const code = scan.text.charCodeAt(scan.position);
  if (code === OPEN_BRACE) return readObject(scan, matched);
  if (code === OPEN_BRACKET) return readArray(scan);
  if (code === QUOTE) {
    const start = scan.position;
    if (!readString(scan)) return false;
    if (matched === scan.path.length && scan.start < 0) {
      scan.start = start;
      scan.end = scan.position;
    }
    return true;
  }
  return readNumber(scan) || readWord(scan, 'true') || readWord(scan, 'false') || readWord(scan, 'null');
}

function readObject(scan: Scan, matched: number): boolean {
  const { text, path } = scan;
  scan.position++;
  if (text.charCodeAt(skipWhitespace(scan)) === CLOSE_BRACE) {
    scan.position++;
    return true;
  }
  for (;;) {
    const keyStart = scan.position;
    if (text.charCodeAt(keyStart) !== QUOTE || !readString(scan)) return false;
    const onPath = matched >= 0 && matched < path.length && keyEquals(text, keyStart, scan.position, path[matched]!);
    if (text.charCodeAt(skipWhitespace(scan)) !== COLON) return false;
    scan.position++;
    if (!readValue(scan, onPath ? matched + 1 : -1)) return false;
    const next = text.charCodeAt(skipWhitespace(scan));
    scan.position++;
    if (next === CLOSE_BRACE) return true;
    if (next !== COMMA) return false;
    skipWhitespace(scan);
  }
}

function readArray(scan: Scan): boolean {
  scan.position++;
  if (scan.text.charCodeAt(skipWhitespace(scan)) === CLOSE_BRACKET) {
    scan.position++;
    return true;
  }
  for (;;) {
    if (!readValue(scan, -1)) return false;
    const next = scan.text.charCodeAt(skipWhitespace(scan));
    scan.position++;
    if (next === CLOSE_BRACKET) return true;
    if (next !== COMMA) return false;
  }
}

/** Reads the string literal opening at the position: valid escapes, no raw control characters. */
function readString(scan: Scan): boolean {
  const { text } = scan;
  for (let index = scan.position + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === QUOTE) {
      scan.position = index + 1;
      return true;
    }
    if (code < 0x20) return false;
    if (code === BACKSLASH) {
      const escaped = text.charCodeAt(++index);
      if (!ESCAPABLE.has(escaped)) return false;
      if (escaped === 0x75) {
        if (!HEX.test(text.slice(index + 1, index + 5))) return false;
        index += 4;
      }
    }
  }
  return false;
}

/** `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` */
function readNumber(scan: Scan): boolean {
  const { text } = scan;
  let index = scan.position;
  if (text.charCodeAt(index) === MINUS) index++;
  if (text.charCodeAt(index) === ZERO) index++;
  else if (isDigit(text.charCodeAt(index))) index = skipDigits(text, index);
  else return false;
  if (text.charCodeAt(index) === DOT) {
    if (!isDigit(text.charCodeAt(index + 1))) return false;
    index = skipDigits(text, index + 1);
  }
  const exponent = text.charCodeAt(index) | 0x20;
  if (exponent === 0x65) {
    index++;
    const sign = text.charCodeAt(index);
    if (sign === PLUS || sign === MINUS) index++;
    if (!isDigit(text.charCodeAt(index))) return false;
    index = skipDigits(text, index);
  }
  scan.position = index;
  return true;
}

function readWord(scan: Scan, word: string): boolean {
  if (!scan.text.startsWith(word, scan.position)) return false;
  scan.position += word.length;
  return true;
}

/** Whether the key literal `text[start, end)` (quotes included) names `name`; escapes are decoded. */
function keyEquals(text: string, start: number, end: number, name: string): boolean {
  if (end - start - 2 === name.length && text.startsWith(name, start + 1)) return true;
  // A key written with escapes (`"mod\u0065l"`) is rare: decode it rather than compare raw text.
  const backslash = text.indexOf('\\', start + 1);
  return backslash >= 0 && backslash < end && JSON.parse(text.slice(start, end)) === name;
}

function skipDigits(text: string, start: number): number {
  let index = start;
  while (isDigit(text.charCodeAt(index))) index++;
  return index;
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}

/** Moves past JSON's four whitespace characters (space, tab, line feed, carriage return); returns the new position. */
function skipWhitespace(scan: Scan): number {
  const { text } = scan;
  let index = scan.position;
  for (let code = text.charCodeAt(index); code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d; code = text.charCodeAt(index)) index++;
  scan.position = index;
  return index;
}
