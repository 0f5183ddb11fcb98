import type { ViolationContext } from './report-violation';
import type { StreamOutcome } from './stream-verdict';

/** One content block from its `content_block_start` on, with what has streamed into it. */
export type MessagesBlock = {
  index: number;
  type: string;
  stopped: boolean;
  partialJSON: string;
  signatureSeen: boolean;
};

/** Per-stream state of the Messages validator. */
export type MessagesStreamState = ViolationContext & {
  events: string[];
  text: string;
  outcome: StreamOutcome;
  started: boolean;
  firstEventChecked: boolean;
  terminalType: string | undefined;
  blocks: MessagesBlock[];
  openBlock: MessagesBlock | undefined;
  messageDeltaCount: number;
  stopReason: string | undefined;
};

/** A fresh state before `message_start`. */
export function createMessagesStreamState(): MessagesStreamState {
  return {
    violations: [],
    index: 0,
    label: '',
    events: [],
    text: '',
    outcome: 'none',
    started: false,
    firstEventChecked: false,
    terminalType: undefined,
    blocks: [],
    openBlock: undefined,
    messageDeltaCount: 0,
    stopReason: undefined,
  };
}
