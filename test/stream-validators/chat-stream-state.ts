import type { ViolationContext } from './report-violation';
import type { StreamOutcome } from './stream-verdict';

/** One streamed tool call of a choice, keyed by its `index`. */
export type ChatToolCall = {
  index: number;
  id: string;
  name: string;
  argumentsText: string;
};

/** One choice (by `choices[].index`) and what has streamed into it. */
export type ChatChoice = {
  index: number;
  finishReason: string | undefined;
  toolCalls: ChatToolCall[];
};

/** Options of `validateChatStream`: `expectUsage` mirrors the request's `stream_options.include_usage`. */
export type ChatStreamOptions = {
  expectUsage?: boolean | undefined;
};

/** Per-stream state of the Chat validator; `terminal` is the frame after which nothing may follow. */
export type ChatStreamState = ViolationContext & {
  options: ChatStreamOptions;
  events: string[];
  text: string;
  outcome: StreamOutcome;
  identity: { id: unknown; created: unknown; model: unknown } | undefined;
  choices: ChatChoice[];
  usageSeen: boolean;
  terminal: '[DONE]' | 'error frame' | undefined;
};

/** A fresh state before the first chunk. */
export function createChatStreamState(options: ChatStreamOptions): ChatStreamState {
  return {
    violations: [],
    index: 0,
    label: '',
    options,
    events: [],
    text: '',
    outcome: 'none',
    identity: undefined,
    choices: [],
    usageSeen: false,
    terminal: undefined,
  };
}
