/**
 * Why generation stopped, in no protocol's words. `error` is an answer the upstream ended
 * unfinished (Anthropic's `pause_turn`, a cancelled Response): only a client of the upstream's own
 * protocol can continue it (`unfinishedAnswerError`).
 */
export type UnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

/** The unified reason, plus the upstream's own word for it (for logs and records only). */
export type FinishReason = {
  unified: UnifiedFinishReason;
  raw: string | undefined;
  /** The custom stop sequence that ended generation, when the upstream reports it. */
  stopSequence?: string | undefined;
};
