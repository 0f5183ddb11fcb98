import type { JSONObject } from '../json';
import type { TranslationWarning } from './translation-warning';
import { describeUnknownFields, UNKNOWN_FIELDS_OPTION } from './unknown-fields';

/**
 * `describeDroppedOptions` for a codec: one `unsupported-field` warning per protocol-only field the
 * client set, except the ones in `silent` (honoured on the client side, or hints not worth a word),
 * and the `unknown-field` warnings of the fields the codec does not know (`describeUnknownFields`).
 */
export function createDroppedOptionsDescriber(silent: readonly string[]) {
  const quiet = new Set([...silent, UNKNOWN_FIELDS_OPTION]);
  return function describeDroppedOptions(options: JSONObject): TranslationWarning[] {
    const known = Object.keys(options)
      .filter(field => !quiet.has(field) && options[field] !== undefined)
      .map(field => ({ type: 'unsupported-field' as const, field, details: "the route's upstream speaks another protocol" }));
    return [...known, ...describeUnknownFields(options)];
  };
}
