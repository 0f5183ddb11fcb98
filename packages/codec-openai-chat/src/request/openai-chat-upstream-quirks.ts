import type { JSONObject, UpstreamQuirks } from '@signalbox/core';

/**
 * How OpenAI-compatible Chat servers depart from OpenAI's Chat Completions, by the name an
 * upstream's `quirks` lists:
 * - `omit-stream-options`: the server refuses `stream_options` (Mistral answers 422
 *   `extra_forbidden`, and reports usage in a stream's last chunk unasked), so it is never sent;
 * - `max-tokens`: the server knows the output limit only as `max_tokens` (Ollama, Mistral), so
 *   `max_completion_tokens` is sent under that name.
 * @see https://docs.mistral.ai/api/ (chat completion request body)
 * @see https://docs.ollama.com/api/openai-compatibility (supported request fields)
 */
export const openAIChatUpstreamQuirks: UpstreamQuirks = {
  known: {
    'omit-stream-options': 'never send `stream_options` (the server refuses it; usage is then what the server reports unasked)',
    'max-tokens': 'send the output limit as `max_tokens`, never `max_completion_tokens`',
  },
  apply(body, quirks) {
    let adjusted: JSONObject = body;
    if (quirks.includes('omit-stream-options') && 'stream_options' in adjusted) {
      const { stream_options: _omitted, ...rest } = adjusted;
      adjusted = rest;
    }
    if (quirks.includes('max-tokens') && 'max_completion_tokens' in adjusted) {
      const { max_completion_tokens: limit, ...rest } = adjusted;
      const both = typeof rest.max_tokens === 'number' && typeof limit === 'number';
      adjusted = { ...rest, max_tokens: both ? Math.min(rest.max_tokens as number, limit) : limit };
    }
    return adjusted;
  },
};
