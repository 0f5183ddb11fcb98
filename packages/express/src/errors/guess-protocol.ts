import type { Protocol } from '@switchyard/core';
import type { Request } from 'express';

/**
 * The envelope for a request that matched no interface (a wrong path): Anthropic's when the caller
 * looks like an Anthropic client, OpenAI's otherwise.
 */
export function guessProtocol(request: Request): Protocol {
  if (request.path.includes('/messages')) return 'anthropic-messages';
  if (request.headers['x-api-key'] !== undefined || request.headers['anthropic-version'] !== undefined) {
    return 'anthropic-messages';
  }
  return request.path.includes('/chat/') ? 'openai-chat' : 'openai-responses';
}
