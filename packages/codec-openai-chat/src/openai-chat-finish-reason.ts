import { assertNever, type FinishReason, type UnifiedFinishReason } from '@signalbox/core';

/** Chat's `finish_reason` words (`function_call` is the legacy name for a tool call). */
export type OpenAIChatFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * Upstream `finish_reason` → IR. Tool calls win over `stop`/`null`/unknown words, because OpenAI
 * answers `stop`, not `tool_calls`, when `tool_choice` forces a named function; `length` and
 * `content_filter` are kept, since they say the calls may be cut short.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export function decodeOpenAIChatFinishReason(
  raw: string | null | undefined,
  hasToolCalls: boolean,
): FinishReason {
  const unified = unifiedFromRaw(raw ?? undefined);
  const overridden = hasToolCalls && (unified === 'stop' || unified === 'other') ? 'tool-calls' : unified;
  return { unified: overridden, raw: raw ?? undefined };
}

function unifiedFromRaw(raw: string | undefined): UnifiedFinishReason {
  switch (raw) {
    case 'stop':
    case undefined: // compatible servers that omit finish_reason on a finished answer mean a normal stop
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/**
 * IR → the client's `finish_reason`, never a word outside Chat's vocabulary (clients and SDKs
 * switch on those four), so unknown reasons read as `stop`. An answer cut by the token limit or a
 * filter says so even with tool calls, as OpenAI does: their arguments may be unfinished JSON.
 * Otherwise any tool call makes it `tool_calls`.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export function encodeOpenAIChatFinishReason(
  finishReason: FinishReason,
  hasToolCalls: boolean,
): OpenAIChatFinishReason {
  switch (finishReason.unified) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'stop':
    case 'tool-calls': // without a call, a tool_calls reason would promise one that is not there
    case 'error':
    case 'other':
      return hasToolCalls ? 'tool_calls' : 'stop';
    default:
      return assertNever(finishReason.unified, 'finish reason');
  }
}
