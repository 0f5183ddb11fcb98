/**
 * How many characters of a client's value an error message or a log line shows. Long enough for
 * any real model ID, field name or path; short enough that a 4 MB `model` string costs a client
 * ~200 bytes of error body and the logs the same.
 */
export const CLIENT_VALUE_MAX_CHARS = 200;

/**
 * A client's text cut to `max` characters, with a marker saying how much was left off:
 * `abc… (+3999800 chars)`. Text within the limit is returned as it is. Never splits a surrogate
 * pair, so the result is still well-formed UTF-16.
 */
export function boundClientText(text: string, max: number = CLIENT_VALUE_MAX_CHARS): string {
  if (text.length <= max) return text;
  const kept = text.slice(0, endOfWholeCharacters(text, max));
  return `${kept}… (+${text.length - kept.length} chars)`;
}

/**
 * A client's value as error messages quote it: in single quotes, cut to `max` characters with the
 * marker outside the quotes, so a reader sees where the value stops:
 * `The model 'gpt-6' does not exist.`, `The model 'aaaa…' (+3999800 chars) does not exist.`
 */
export function quoteClientValue(text: string, max: number = CLIENT_VALUE_MAX_CHARS): string {
  if (text.length <= max) return `'${text}'`;
  const kept = text.slice(0, endOfWholeCharacters(text, max));
  return `'${kept}…' (+${text.length - kept.length} chars)`;
}

/** `max`, or one less when that would cut a surrogate pair in half. */
function endOfWholeCharacters(text: string, max: number): number {
  const last = text.charCodeAt(max - 1);
  return last >= 0xd800 && last <= 0xdbff ? max - 1 : max;
}
