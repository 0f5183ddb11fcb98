const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * `text` (a JSON object) with the string at `path` (member names from the top, e.g.
 * `['message', 'model']`) replaced by `literal`, an already-encoded JSON string
 * (`JSON.stringify(value)`); every other character is kept as it was. `undefined` when the path does
 * not lead to a string (a member is absent, a value on the way is not an object, the value is not a
 * string) or the text is not one whole object: a string left open, a bracket left unclosed, more
 * after the object's end. Of members repeated under one name (which RFC 8259 leaves undefined),
 * the first is replaced.
 *
 * One pass over the text that looks only at quotes, brackets and commas and builds nothing, for
 * frames a stream decoder has parsed already: it checks their structure, not every token (a
 * misspelt `nul` passes), so text that was never parsed must be checked elsewhere.
 * @see https://www.rfc-editor.org/rfc/rfc8259
 */
export function spliceJSONString(text: string, path: readonly string[], literal: string): string | undefined {
  if (path.length === 0) return undefined;
  const last = path.length - 1;
  let index = skipWhitespace(text, 0);
  if (text.charCodeAt(index) !== OPEN_BRACE) return undefined;
  /** Open objects and arrays around the position. */
  let depth = 0;
  /** How many names of the path lead to the object whose members are read (at depth `matched + 1`). */
  let matched = 0;
  /** Whether the next string in that object is a member name; and whether the last one read is `path[matched]`. */
  let expectingName = true;
  let nameMatched = false;
  let start = -1;
  let end = -1;
  for (; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const inSearchedObject = start < 0 && depth === matched + 1;
    if (code === QUOTE) {
      const close = closingQuote(text, index);
      if (close < 0) return undefined;
      if (inSearchedObject && expectingName) {
        nameMatched = nameEquals(text, index, close, path[matched]!);
        expectingName = false;
      } else if (inSearchedObject && nameMatched) {
        if (matched !== last) return undefined;
        start = index;
        end = close + 1;
      }
      index = close;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (inSearchedObject && nameMatched) {
        if (code === OPEN_BRACKET || matched === last) return undefined;
        matched += 1;
        expectingName = true;
        nameMatched = false;
      }
      depth += 1;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      // Leaving the searched object, or a member of the path holding a number, `true`, `false` or `null`.
      if (inSearchedObject) return undefined;
      depth -= 1;
      if (depth === 0) break;
    } else if (code === COMMA && inSearchedObject) {
      if (nameMatched) return undefined;
      expectingName = true;
    }
  }
  if (start < 0 || depth !== 0 || skipWhitespace(text, index + 1) !== text.length) return undefined;
  return text.slice(0, start) + literal + text.slice(end);
}

/** The index of the quote that closes the string opening at `open`, or -1 when it stays open. */
function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslash = quote - 1;
    while (text.charCodeAt(backslash) === BACKSLASH) backslash--;
    // An even run of backslashes before the quote escapes only itself.
    if ((quote - 1 - backslash) % 2 === 0) return quote;
  }
  return -1;
}

/** Whether the string literal `text[open, close]` (quotes included) says `name`; escapes are decoded. */
function nameEquals(text: string, open: number, close: number, name: string): boolean {
  if (close - open - 1 === name.length && text.startsWith(name, open + 1)) return true;
  // A name written with escapes (`"mod\u0065l"`) is rare: decode it rather than compare raw text.
  const backslash = text.indexOf('\\', open + 1);
  if (backslash < 0 || backslash > close) return false;
  try {
    return JSON.parse(text.slice(open, close + 1)) === name;
  } catch {
    return false;
  }
}

/** The first index from `start` that is not JSON whitespace (space, tab, line feed, carriage return). */
function skipWhitespace(text: string, start: number): number {
  let index = start;
  for (let code = text.charCodeAt(index); code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d; code = text.charCodeAt(index)) index++;
  return index;
}
