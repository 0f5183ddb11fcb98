import type { OutputPart } from './content-part';
import type { FinishReason } from './finish-reason';
import type { Usage } from './usage';

/** A finished (non-streaming) generation in no protocol's shape. */
export type GenerationResponse = {
  /** The upstream's id for this response (kept for records; clients get the gateway's id). */
  id: string;
  /** The model name the upstream reported. */
  model: string;
  content: OutputPart[];
  finishReason: FinishReason;
  usage: Usage;
};
