import { partsOf } from './read-gemini-contents';
import { asRecord, asString } from './read-text-content';
import { simulatorError, type SimulatorError } from './simulator-error';
import { isValidThoughtSignature } from './thought-signature';

/** How much of a function name an error quotes. */
const QUOTED_NAME_LENGTH = 64;

/**
 * The API's checks of replayed thought signatures: every signature must be one the model issued,
 * unchanged; and on Gemini 3 models the first function call of each model step in the current
 * turn (since the last user text) must carry its signature.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export function checkThoughtSignatures(contents: readonly unknown[], model: string): SimulatorError | undefined {
  const records = contents.map(asRecord);
  for (const content of records) {
    for (const part of partsOf(content)) {
      const signature = part.thoughtSignature ?? part.thought_signature;
      if (signature !== undefined && (typeof signature !== 'string' || !isValidThoughtSignature(signature))) {
        return simulatorError(400, 'Corrupted thought signature.');
      }
    }
  }
  if (!model.startsWith('gemini-3')) return undefined;
  const turnStart = records.findLastIndex(content => content?.role !== 'model' && partsOf(content).some(part => typeof part.text === 'string'));
  for (let index = Math.max(0, turnStart + 1); index < records.length; index += 1) {
    const content = records[index];
    if (content?.role !== 'model') continue;
    const firstCall = partsOf(content).find(part => part.functionCall !== undefined);
    if (firstCall !== undefined && firstCall.thoughtSignature === undefined && firstCall.thought_signature === undefined) {
      const name = (asString(asRecord(firstCall.functionCall)?.name) ?? '').slice(0, QUOTED_NAME_LENGTH);
      return simulatorError(
        400,
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${name}\`, position ${index + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      );
    }
  }
  return undefined;
}
