import type { GatewayError } from '../errors/gateway-error';
import type { FinishReason } from './finish-reason';
import type { Usage } from './usage';

/**
 * One event of a generation stream, in no protocol's shape.
 * Names are `<noun>-<action>`; each `*-start` is closed by an `*-end` with the same block `id`.
 * Block ids are stream-local strings; protocol ids (tool call ids) travel as their own fields.
 * A stream is `response-start`, blocks, then exactly one terminal: `response-end` or `error`.
 */
export type StreamEvent =
  | { type: 'response-start'; id: string; model: string; usage?: Usage }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'refusal-start'; id: string }
  | { type: 'refusal-delta'; id: string; delta: string }
  | { type: 'refusal-end'; id: string }
  | { type: 'reasoning-start'; id: string; redactedData?: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string; signature?: string; encryptedContent?: string }
  | { type: 'tool-call-start'; id: string; callId: string; toolName: string }
  | { type: 'tool-call-delta'; id: string; argumentsDelta: string }
  /** `arguments` is the complete JSON text when the upstream sent it at the end (it wins over deltas). */
  | { type: 'tool-call-end'; id: string; arguments?: string }
  | { type: 'response-end'; finishReason: FinishReason; usage: Usage }
  | { type: 'error'; error: GatewayError };

export type StreamEventType = StreamEvent['type'];
