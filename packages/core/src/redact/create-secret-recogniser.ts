import { BARE_TOKEN_LENGTH, escapeForPattern, SECRET_SHAPES } from './secret-shapes';

/** What a recognised secret is replaced with. */
export const REDACTED = '[redacted]';

/** Exact values shorter than this are not secrets worth the name, and would scrub ordinary words. */
export const MIN_SECRET_VALUE_LENGTH = 8;

/**
 * How far past a cut `cut` still looks, so that a secret that starts before the cut is seen whole
 * (the longest shape needs 43 characters to be recognised) while a 4 MB value costs no more than
 * its first few hundred characters.
 */
const SHAPE_REACH = 64;

/** A client's text cut for display: the part kept (secrets replaced) and how many characters were left off. */
export type CutText = { kept: string; omitted: number };

/**
 * Recognises every credential the gateway issues or is given, by shape (`SECRET_SHAPES`) and, for
 * secrets with no shape of their own (upstream keys), by exact value. The values live only inside
 * the recogniser's compiled pattern: nothing about them can be read back or logged from it.
 */
export type SecretRecogniser = {
  /** The text with every secret replaced by `[redacted]`; the very same string when it holds none. */
  scrub(text: string): string;
  /**
   * The text scrubbed and cut to `max` characters (never inside a surrogate pair). Only the first
   * `max` characters and a short reach past them are looked at, so a huge value costs little.
   */
  cut(text: string, max: number): CutText;
  /** Every secret in the text, as it appears there (for audits and tests; allocates). */
  find(text: string): string[];
};

/** A recogniser that can learn secrets while it runs (a cloud token rotated after start). */
export type LearningSecretRecogniser = SecretRecogniser & {
  /**
   * Recognises `value` from now on (ignored when shorter than `MIN_SECRET_VALUE_LENGTH` or known).
   * Rare by design (a token refresh): the pattern is compiled again. The latest
   * `MAX_LEARNED_SECRETS` learned values are kept; the given ones always are.
   */
  remember(value: string): void;
};

/** How many secrets learned at run time a recogniser keeps: a few rotations of every upstream's tokens. */
export const MAX_LEARNED_SECRETS = 256;

/**
 * A recogniser of `SECRET_SHAPES` and of the exact `values` given (an engine passes its upstream
 * keys at start), and of those it is told to `remember` later. Values shorter than
 * `MIN_SECRET_VALUE_LENGTH` are ignored. Scrubbing a text without secrets allocates nothing: one
 * `test` of one precompiled pattern, and a look for a run long enough to hold a bare token.
 */
export function createSecretRecogniser(values: Iterable<string | undefined> = []): LearningSecretRecogniser {
  const given = new Set([...values].filter((value): value is string => value !== undefined && value.length >= MIN_SECRET_VALUE_LENGTH));
  const learned = new Set<string>();
  let patterns = compilePatterns([...given]);
  const scrub = (text: string): string => {
    const { prefixedFound, prefixed, bare } = patterns;
    const scrubbed = prefixedFound.test(text) ? text.replace(prefixed, replacePrefixed) : text;
    return holdsBareRun(scrubbed) ? scrubbed.replace(bare, replaceBare) : scrubbed;
  };
  return {
    scrub,
    cut(text, max) {
      if (text.length <= max) return { kept: scrub(text), omitted: 0 };
      const window = text.length > max + patterns.reach ? text.slice(0, max + patterns.reach) : text;
      const scrubbed = scrub(window);
      const beyond = text.length - window.length;
      if (scrubbed.length <= max) return { kept: scrubbed, omitted: beyond };
      const end = endOfWholeCharacters(scrubbed, max);
      // A cut can leave a tail that looks like a bare token (43 characters of a longer run): scrubbed too.
      return { kept: scrub(scrubbed.slice(0, end)), omitted: scrubbed.length - end + beyond };
    },
    find(text) {
      const { prefixed, bare } = patterns;
      // A query parameter's value that was replaced already (`?key=[redacted]`) is no secret.
      const found = [...text.matchAll(prefixed)].map(match => match[0].slice(keptContext(match).length)).filter(secret => secret !== REDACTED);
      for (const match of text.replace(prefixed, replacePrefixed).matchAll(bare)) {
        const token = match[0].slice(keptContext(match).length);
        if (looksRandom(token)) found.push(token);
      }
      return found;
    },
    remember(value) {
      if (value.length < MIN_SECRET_VALUE_LENGTH || given.has(value) || learned.has(value)) return;
      learned.add(value);
      if (learned.size > MAX_LEARNED_SECRETS) learned.delete(learned.values().next().value!);
      patterns = compilePatterns([...given, ...learned]);
    },
  };
}

/** The compiled patterns of a recogniser over `exact` values and the shapes. */
type SecretPatterns = { prefixedFound: RegExp; prefixed: RegExp; bare: RegExp; reach: number };

function compilePatterns(values: string[]): SecretPatterns {
  // The longest value first, so that a value holding another is replaced whole.
  const exact = [...values].sort((left, right) => right.length - left.length);
  const prefixedSource = [...exact.map(escapeForPattern), ...SECRET_SHAPES.filter(shape => !shape.bare).map(shape => shape.pattern)].join('|');
  const bareSource = SECRET_SHAPES.filter(shape => shape.bare).map(shape => shape.pattern).join('|');
  // Each pattern twice: a `test` finds out whether a text holds anything at about half the cost of a
  // `replace` that finds nothing (measured), and the global one replaces only in the texts that do.
  return {
    prefixedFound: new RegExp(prefixedSource),
    prefixed: new RegExp(prefixedSource, 'g'),
    bare: new RegExp(bareSource, 'g'),
    reach: Math.max(SHAPE_REACH, exact[0]?.length ?? 0),
  };
}

/** The recogniser of the shapes alone: for text the gateway shows wherever no engine is at hand. */
export const secretRecogniser: SecretRecogniser = createSecretRecogniser();

/** A prefixed shape's match, replaced: any context it captured (a query parameter's name) is kept. */
function replacePrefixed(match: string, ...rest: unknown[]): string {
  const context = firstCapture(rest);
  return context === undefined ? REDACTED : context + REDACTED;
}

/** A bare run, replaced when it looks random (both letter cases), with the character before it kept. */
function replaceBare(match: string, before: string): string {
  const token = match.slice(before.length);
  return looksRandom(token) ? before + REDACTED : match;
}

/** The first capture group that took part in the match (`replace` hands groups, then offset and text). */
function firstCapture(rest: readonly unknown[]): string | undefined {
  for (const item of rest) {
    if (typeof item === 'number') return undefined;
    if (typeof item === 'string') return item;
  }
  return undefined;
}

function keptContext(match: RegExpMatchArray): string {
  return firstCapture(match.slice(1)) ?? '';
}

/**
 * Whether the text has a run of at least `BARE_TOKEN_LENGTH` base64url characters, where a bare
 * token could be. Any such run covers one of the positions looked at, every 43rd, so an ordinary
 * text (a browser's user agent) is ruled out after a few characters, at a fifth of a pattern's cost.
 */
function holdsBareRun(text: string): boolean {
  for (let probe = BARE_TOKEN_LENGTH - 1; probe < text.length; probe += BARE_TOKEN_LENGTH) {
    if (!isBase64URL(text.charCodeAt(probe))) continue;
    let start = probe;
    while (start > 0 && isBase64URL(text.charCodeAt(start - 1))) start -= 1;
    let end = probe + 1;
    while (end < text.length && isBase64URL(text.charCodeAt(end))) end += 1;
    if (end - start >= BARE_TOKEN_LENGTH) return true;
  }
  return false;
}

/** `A-Z`, `a-z`, `0-9`, `-` or `_`. */
function isBase64URL(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45 || code === 95;
}

/** Both an upper-case and a lower-case letter: true of a random base64url token, false of hex, words and numbers. */
function looksRandom(token: string): boolean {
  return /[A-Z]/.test(token) && /[a-z]/.test(token);
}

/** `max`, or one less when that would cut a surrogate pair in half. */
function endOfWholeCharacters(text: string, max: number): number {
  const last = text.charCodeAt(max - 1);
  return last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
}
