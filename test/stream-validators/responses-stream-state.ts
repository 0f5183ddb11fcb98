import type { ViolationContext } from './report-violation';
import type { StreamOutcome } from './stream-verdict';

/** A content part of a message or reasoning item, keyed by its `content_index`. */
export type ResponsesPart = {
  contentIndex: number;
  type: string;
  text: string;
  textDone: boolean;
  done: boolean;
};

/** A reasoning summary paragraph, keyed by its `summary_index`. */
export type ResponsesSummary = {
  summaryIndex: number;
  text: string;
  textDone: boolean;
  done: boolean;
};

/** One output item as announced by `response.output_item.added`, with what has streamed into it. */
export type ResponsesItem = {
  outputIndex: number;
  id: string;
  type: string;
  callId: string | undefined;
  done: boolean;
  parts: ResponsesPart[];
  summaries: ResponsesSummary[];
  argumentsText: string;
  argumentDeltaCount: number;
  argumentsDone: boolean;
};

/** Per-stream state of the Responses validator; `lifecycle` tracks created → [queued] → in_progress. */
export type ResponsesStreamState = ViolationContext & {
  events: string[];
  text: string;
  outcome: StreamOutcome;
  terminalType: string | undefined;
  nextSequenceNumber: number;
  lifecycle: 'start' | 'created' | 'queued' | 'running';
  responseId: string | undefined;
  items: ResponsesItem[];
};

/** A fresh state before the first event. */
export function createResponsesStreamState(): ResponsesStreamState {
  return {
    violations: [],
    index: 0,
    label: '',
    events: [],
    text: '',
    outcome: 'none',
    terminalType: undefined,
    nextSequenceNumber: 0,
    lifecycle: 'start',
    responseId: undefined,
    items: [],
  };
}
