import type { GenerationOutput, UpstreamAnswer } from '../generation/generation-output';
import type { ExchangeDependencies } from './exchange-dependencies';
import { endingOfJSONAnswer, endingOfStream } from './exchange-ending';
import type { ExchangeState } from './exchange-state';
import { settleExchange } from './settle-exchange';

type JSONAnswer = Extract<UpstreamAnswer, { kind: 'json' }>;

/** Hands an answer to the transport; its settlement follows the JSON send or the stream's end. */
export function deliverAnswer(state: ExchangeState, dependencies: ExchangeDependencies, answer: UpstreamAnswer): GenerationOutput {
  if (answer.kind === 'json') {
    deliverJSONAnswer(state, dependencies, answer);
    return { kind: 'json', body: answer.body, headers: answer.headers };
  }
  answerStarted(state, dependencies, 'stream');
  state.abandonAnswer = answer.abandon;
  const estimatedInputTokens = state.admission?.estimatedInputTokens ?? 0;
  const { settlement } = dependencies;
  return {
    kind: 'stream',
    headers: answer.headers,
    // A `then`, not an `async` function: an open stream keeps no suspended frame of it (the pipe never rejects).
    pipe(sink) {
      state.abandonAnswer = undefined;
      return answer.pipe(sink).then(outcome => {
        void settleExchange(state, endingOfStream(outcome, estimatedInputTokens), settlement);
        return outcome;
      });
    },
  };
}

/**
 * A JSON answer is used: sent to the client, or sealed as a compaction's summary. It is the
 * exchange's first byte, and settling its money and counting its tokens need not delay it: they
 * run while it is sent.
 */
export function deliverJSONAnswer(state: ExchangeState, dependencies: ExchangeDependencies, answer: JSONAnswer): void {
  answerStarted(state, dependencies, 'json');
  void settleExchange(state, endingOfJSONAnswer(answer), dependencies.settlement);
}

function answerStarted(state: ExchangeState, dependencies: ExchangeDependencies, kind: 'json' | 'stream'): void {
  state.firstByteAt = dependencies.clock.now();
  state.watcher?.responseStarted?.(kind);
}
