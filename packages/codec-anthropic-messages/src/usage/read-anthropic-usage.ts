import { isJSONObject, isNullishNumber } from '@signalbox/core';
import type { AnthropicUsageCounts } from './decode-anthropic-usage';

/**
 * A `usage` member (absent, `null` or an object) as `anthropicUsageSchema.nullish()` leaves it: its
 * counters, numbers or `null`, in a copy of fixed shape; `false` when the schema would refuse it.
 */
export function readAnthropicUsage(value: unknown): AnthropicUsageCounts | null | undefined | false {
  if (value == null) return value;
  if (
    !isJSONObject(value) ||
    !isNullishNumber(value.input_tokens) ||
    !isNullishNumber(value.output_tokens) ||
    !isNullishNumber(value.cache_creation_input_tokens) ||
    !isNullishNumber(value.cache_read_input_tokens)
  )
    return false;
  const creation = value.cache_creation;
  const details = value.output_tokens_details;
  if (creation != null && !(isJSONObject(creation) && isNullishNumber(creation.ephemeral_5m_input_tokens) && isNullishNumber(creation.ephemeral_1h_input_tokens)))
    return false;
  if (details != null && !(isJSONObject(details) && isNullishNumber(details.thinking_tokens))) return false;
  return {
    input_tokens: value.input_tokens as number | null | undefined,
    output_tokens: value.output_tokens as number | null | undefined,
    cache_creation_input_tokens: value.cache_creation_input_tokens as number | null | undefined,
    cache_read_input_tokens: value.cache_read_input_tokens as number | null | undefined,
    cache_creation:
      creation == null
        ? creation
        : {
            ephemeral_5m_input_tokens: creation.ephemeral_5m_input_tokens as number | null | undefined,
            ephemeral_1h_input_tokens: creation.ephemeral_1h_input_tokens as number | null | undefined,
          },
    output_tokens_details: details == null ? details : { thinking_tokens: details.thinking_tokens as number | null | undefined },
  };
}
