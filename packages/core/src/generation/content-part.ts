import type { JSONObject } from '../json';

export type TextPart = { type: 'text'; text: string };

/** An image given by URL (`https:` or `data:`) or as base64 with its media type. */
export type ImagePart = {
  type: 'image';
  source: { kind: 'url'; url: string } | { kind: 'base64'; mediaType: string; data: string };
  detail?: 'low' | 'high' | 'auto' | 'original';
};

/** A document or file, inline (base64 or plain text) or by URL. */
export type FilePart = {
  type: 'file';
  source:
    | { kind: 'url'; url: string }
    | { kind: 'base64'; mediaType: string; data: string }
    | { kind: 'text'; mediaType: string; data: string };
  filename?: string;
};

/** A call the model made. `arguments` is JSON text (possibly `""` for none). */
export type ToolCallPart = { type: 'tool-call'; callId: string; name: string; arguments: string };

/** The caller's answer to one tool call. */
export type ToolResultPart = {
  type: 'tool-result';
  callId: string;
  content: Array<TextPart | ImagePart | FilePart>;
  isError?: boolean;
};

/**
 * Model reasoning. `signature` (Anthropic), `redactedData` (Anthropic redacted thinking) and
 * `encryptedContent` (OpenAI) are opaque and must be carried byte-for-byte or not at all.
 */
export type ReasoningPart = {
  type: 'reasoning';
  text: string;
  signature?: string;
  redactedData?: string;
  encryptedContent?: string;
};

/** A refusal the model produced instead of an answer. */
export type RefusalPart = { type: 'refusal'; text: string };

export type SystemMessage = { role: 'system'; content: TextPart[] };
export type UserMessage = { role: 'user'; content: Array<TextPart | ImagePart | FilePart> };
export type AssistantMessage = {
  role: 'assistant';
  content: Array<TextPart | RefusalPart | ReasoningPart | ToolCallPart>;
};
/** Results of earlier tool calls, in call order (Anthropic puts these in a user turn). */
export type ToolMessage = { role: 'tool'; content: ToolResultPart[] };

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** What a response may contain, in output order. */
export type OutputPart = TextPart | RefusalPart | ReasoningPart | ToolCallPart;

/** A function tool the model may call; `inputSchema` is a JSON Schema whose root is an object. */
export type ToolDefinition = {
  name: string;
  description?: string;
  inputSchema: JSONObject;
  strict?: boolean;
};

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  | { type: 'tool'; name: string };
