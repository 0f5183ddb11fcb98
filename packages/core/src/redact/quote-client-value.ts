import { secretRecogniser, type SecretRecogniser } from './create-secret-recogniser';

/**
 * How many characters of a client's value an error message or a log line shows. Long enough for
 * any real model ID, field name or path; short enough that a 4 MB `model` string costs a client
 * ~200 bytes of error body and the logs the same.
 */
export const CLIENT_VALUE_MAX_CHARS = 200;

/**
 * A client's text as the gateway shows it anywhere (a log field, a ledger row, an error's `param`):
 * credentials replaced (by `secrets`, default the shapes alone), then cut to `max` characters with a
 * marker saying how much was left off: `abc… (+3999800 chars)`. Text within the limit keeps its
 * length; a cut never splits a surrogate pair, so the result is still well-formed UTF-16.
 */
export function boundClientText(text: string, max: number = CLIENT_VALUE_MAX_CHARS, secrets: SecretRecogniser = secretRecogniser): string {
  const { kept, omitted } = secrets.cut(text, max);
  return omitted === 0 ? kept : `${kept}… (+${omitted} chars)`;
}

/**
 * A client's value as error messages quote it: credentials replaced, in single quotes, cut to
 * `max` characters with the marker outside the quotes, so a reader sees where the value stops:
 * `The model 'gpt-6' does not exist.`, `The model 'aaaa…' (+3999800 chars) does not exist.`
 */
export function quoteClientValue(text: string, max: number = CLIENT_VALUE_MAX_CHARS): string {
  const { kept, omitted } = secretRecogniser.cut(text, max);
  return omitted === 0 ? `'${kept}'` : `'${kept}…' (+${omitted} chars)`;
}
