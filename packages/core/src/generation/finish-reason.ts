/** Why generation stopped, in no protocol's words. */
export type UnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

/** The unified reason, plus the upstream's own word for it (for logs and records only). */
export type FinishReason = {
  unified: UnifiedFinishReason;
  raw: string | undefined;
  /** The custom stop sequence that ended generation, when the upstream reports it. */
  stopSequence?: string | undefined;
};
