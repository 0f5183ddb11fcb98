import type { ScriptedAnswer } from './create-scripted-upstream';
import { createTestEngine, type TestEngine, type TestEngineOptions } from './create-test-engine';
import { readFixture } from './read-fixture';

/** A Messages upstream's 529 `overloaded_error`: retryable, so the next target is tried. */
export const OVERLOADED_ANSWER: ScriptedAnswer = {
  status: 529,
  body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'overloaded' } }),
};

/** Prices of 1 and 2 micros per input and output token: every cost is easy to check by hand. */
export const FAILOVER_PRICING = { inputPerMillion: 1, outputPerMillion: 2 };

/**
 * An engine with one priced route, `client-model` on the Responses interface, over two Messages
 * upstreams: `a` (model `a-model`) answers 529 overloaded once, `b` (model `b-model`) streams
 * `messages-text.sse`; a streamed request fails over from `a` to `b`. The observers' tests follow
 * that request (`options` adds the observer, the key's group, …).
 */
export function createFailoverTestEngine(options: Omit<TestEngineOptions, 'upstreams' | 'routes'> = {}): Promise<TestEngine> {
  return createTestEngine({
    upstreams: {
      a: { protocol: 'anthropic-messages', answers: [OVERLOADED_ANSWER] },
      b: { protocol: 'anthropic-messages', answers: [{ body: readFixture('messages-text.sse'), chunkSize: 32 }] },
    },
    routes: [
      {
        model: 'client-model',
        interfaces: ['responses'],
        targets: [
          { upstream: 'a', model: 'a-model' },
          { upstream: 'b', model: 'b-model' },
        ],
        pricing: FAILOVER_PRICING,
      },
    ],
    ...options,
  });
}
