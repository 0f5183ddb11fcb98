import fc from 'fast-check';
import { counters, field, nested, objectAround } from './wire-shape-arbitraries';

/** Chat Completions `usage` objects (answers and the last stream chunk), with nested counters, well and badly formed. */
export const chatUsage = objectAround({
  prompt_tokens: field(fc.nat({ max: 99 })),
  completion_tokens: field(fc.nat({ max: 99 })),
  total_tokens: field(fc.nat({ max: 99 })),
  prompt_cache_hit_tokens: field(fc.nat({ max: 99 })),
  prompt_tokens_details: nested(counters(['cached_tokens', 'cache_write_tokens', 'audio_tokens'])),
  completion_tokens_details: nested(counters(['reasoning_tokens', 'accepted_prediction_tokens'])),
});
