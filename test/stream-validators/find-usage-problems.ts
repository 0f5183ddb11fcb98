import { isJSONObject } from '@signalbox/core';
import { formatValue, isInteger } from './value-guards';

/**
 * Checks an OpenAI-style usage object: integer input/output/total counts with
 * total = input + output. Key names differ per protocol (Responses vs Chat), so they are passed in.
 */
export function findUsageProblems(usage: unknown, inputKey: string, outputKey: string): string[] {
  if (!isJSONObject(usage)) return [`usage must be an object, got ${formatValue(usage)}`];
  const problems: string[] = [];
  for (const key of [inputKey, outputKey, 'total_tokens']) {
    if (!isInteger(usage[key])) {
      problems.push(`usage.${key} must be an integer, got ${formatValue(usage[key])}`);
    }
  }
  const input = usage[inputKey];
  const output = usage[outputKey];
  const total = usage.total_tokens;
  if (isInteger(input) && isInteger(output) && isInteger(total) && total !== input + output) {
    problems.push(`usage.total_tokens ${total} != ${inputKey} ${input} + ${outputKey} ${output}`);
  }
  return problems;
}
