/** Where a JSON scan is in the text. */
type Cursor = { text: string; at: number };

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS = ['true', 'false', 'null'];
/** A string's opening quote and every character it may hold; what stops the match is its closing quote or the error. */
// eslint-disable-next-line no-control-regex -- control characters are what a JSON string may not hold raw
const STRING_BODY = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*/y;

/**
 * Where `text` stops being JSON (RFC 8259): the offset of the first character that cannot continue
 * it, or the text's length when it ends too soon; `undefined` when it is valid JSON. For an error's
 * line and column, which `JSON.parse` names for some mistakes only (not a stray `'`, a comment or a
 * trailing comma in an array, nor a file that ends too soon). Runs only once a parse has failed.
 */
export function findJSONSyntaxError(text: string): number | undefined {
  const cursor = { text, at: 0 };
  try {
    skip(WHITESPACE, cursor);
    if (!value(cursor)) return cursor.at;
    skip(WHITESPACE, cursor);
    return cursor.at < text.length ? cursor.at : undefined;
  } catch (error) {
    // Nested deeper than the stack allows: the parser's own message has to do.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function value(cursor: Cursor): boolean {
  const first = cursor.text[cursor.at];
  if (first === '{') return container(cursor, '}', member);
  if (first === '[') return container(cursor, ']', value);
  if (first === '"') return string(cursor);
  return first === '-' || (first !== undefined && first >= '0' && first <= '9') ? skip(NUMBER, cursor) : literal(cursor);
}

/** `true`, `false` or `null`; a word that is none of them fails where it parts from the one it starts like. */
function literal(cursor: Cursor): boolean {
  const word = LITERALS.find(candidate => candidate[0] === cursor.text[cursor.at]);
  if (word === undefined) return false;
  let length = 0;
  while (length < word.length && cursor.text[cursor.at + length] === word[length]) length += 1;
  cursor.at += length;
  return length === word.length;
}

/** An object or an array: `item`s between commas, up to `close`. */
function container(cursor: Cursor, close: string, item: (cursor: Cursor) => boolean): boolean {
  cursor.at += 1;
  skip(WHITESPACE, cursor);
  if (cursor.text[cursor.at] === close) return advance(cursor);
  for (;;) {
    if (!item(cursor)) return false;
    skip(WHITESPACE, cursor);
    const next = cursor.text[cursor.at];
    if (next === close) return advance(cursor);
    if (next !== ',') return false;
    cursor.at += 1;
    skip(WHITESPACE, cursor);
  }
}

function member(cursor: Cursor): boolean {
  if (cursor.text[cursor.at] !== '"' || !string(cursor)) return false;
  skip(WHITESPACE, cursor);
  if (cursor.text[cursor.at] !== ':') return false;
  cursor.at += 1;
  skip(WHITESPACE, cursor);
  return value(cursor);
}

function string(cursor: Cursor): boolean {
  skip(STRING_BODY, cursor);
  if (cursor.text[cursor.at] === '"') return advance(cursor);
  // A bad escape is the character after its backslash.
  if (cursor.text[cursor.at] === '\\') cursor.at += 1;
  return false;
}

/** Moves past what `pattern` matches here; false when it matches nothing. */
function skip(pattern: RegExp, cursor: Cursor): boolean {
  pattern.lastIndex = cursor.at;
  const match = pattern.exec(cursor.text);
  if (match === null) return false;
  cursor.at += match[0].length;
  return true;
}

function advance(cursor: Cursor): true {
  cursor.at += 1;
  return true;
}
