import { secretRecogniser } from './create-secret-recogniser';
import { quoteClientValue } from './quote-client-value';

/**
 * What a name a client sends looks like (a block, item or event type, a response or item ID):
 * letters, digits, `_`, `.`, `:` and `-`. Prose does not fit: it has spaces or punctuation.
 */
export const CLIENT_NAME_SHAPE = /^[A-Za-z0-9_][A-Za-z0-9_.:-]*$/;

/**
 * A client's value where a name belongs, as a refusal names it: quoted and cut as by
 * `quoteClientValue` when it is a string of the name's `shape`, else `otherwise` (`(not a type
 * name)`), so neither the refusal nor its log line repeats other text a client put in that field.
 */
export function quoteClientName(value: unknown, otherwise: string, shape: RegExp = CLIENT_NAME_SHAPE): string {
  return typeof value === 'string' && shape.test(value) ? quoteClientValue(value) : otherwise;
}

/**
 * Whether a client's `value` may be shown as it is where a name belongs in a response header or a
 * log field: a string of `shape` that holds nothing shaped like a credential.
 */
export function isShowableClientName(value: unknown, shape: RegExp): value is string {
  return typeof value === 'string' && shape.test(value) && secretRecogniser.scrub(value) === value;
}
