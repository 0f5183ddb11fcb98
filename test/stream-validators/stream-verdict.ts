/** How a stream ended, judged only by its protocol's terminal event; `none` when it never sent one. */
export type StreamOutcome = 'completed' | 'incomplete' | 'failed' | 'error' | 'none';

/**
 * What a stream validator reports: every broken rule (each naming the event index), how the
 * stream ended, the text a client would show, and the event names in arrival order.
 */
export type StreamVerdict = {
  violations: string[];
  outcome: StreamOutcome;
  text: string;
  events: string[];
};
