import type { JSONObject } from '../json';
import type { Protocol } from '../protocol';
import type { TextPart } from './content-part';
import type { Message } from './message';
import type { ToolChoice } from './tool-choice';
import type { ToolDefinition } from './tool-definition';

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json-object' }
  | { type: 'json-schema'; schema: JSONObject; name?: string; description?: string; strict?: boolean };

/**
 * One generation request in no protocol's shape. Fields the request did not set stay
 * `undefined`, so encoders send only what the client asked for.
 */
export type GenerationRequest = {
  /** The exact model ID the client sent (the route's ID, not the upstream's model name). */
  model: string;
  /** Top-level instructions (Responses `instructions`, Messages `system`), in order. */
  system: TextPart[];
  messages: Message[];
  stream: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  stopSequences?: string[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  reasoning?: { effort?: ReasoningEffort; budgetTokens?: number };
  responseFormat?: ResponseFormat;
  metadata?: Record<string, string>;
  /** An opaque end-user id (Responses `safety_identifier`/`user`, Messages `metadata.user_id`). */
  user?: string;
  /**
   * Groups requests that share a long prefix on one OpenAI cache shard (Responses and Chat
   * `prompt_cache_key`): the client's, or the gateway's own conversation key when it sent none.
   */
  promptCacheKey?: string;
  /** Fields only one protocol has, kept for that protocol's encoder. */
  providerOptions?: Partial<Record<Protocol, JSONObject>>;
};
