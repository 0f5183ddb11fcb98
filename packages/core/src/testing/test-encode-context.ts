import type { EncodeContext } from '../codec/codec';
import type { GenerationRequest } from '../generation/generation-request';

/**
 * An encoder context for tests: a minimal streaming client request (the encoders read its `model`,
 * `client-model` unless overridden) and a fixed creation time, so encoded output is the same on
 * every run.
 */
export function testEncodeContext(
  overrides: Partial<GenerationRequest> = {},
  createdAt = 1_763_769_600,
): EncodeContext {
  return {
    request: { model: 'client-model', system: [], messages: [], stream: true, ...overrides },
    createdAt,
  };
}
