import type { JSONObject } from '../json';
import type { TranslationWarning } from './translation-warning';

/**
 * `describeDroppedOptions` for a codec: one `unsupported-field` warning per protocol-only field the
 * client set, except the ones in `silent` (honoured on the client side, or hints not worth a word).
 */
export function createDroppedOptionsDescriber(silent: readonly string[]) {
  const quiet = new Set(silent);
  return function describeDroppedOptions(options: JSONObject): TranslationWarning[] {
    return Object.keys(options)
      .filter(field => !quiet.has(field) && options[field] !== undefined)
      .map(field => ({ type: 'unsupported-field', field, details: "the route's upstream speaks another protocol" }));
  };
}
