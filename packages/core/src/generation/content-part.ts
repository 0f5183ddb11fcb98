// The pieces a message or a response is made of: text, media, tool calls and results, reasoning, refusals.

import type { CacheControl } from './cache-control';

export type TextPart = { type: 'text'; text: string; cacheControl?: CacheControl };

/** An image given by URL (`https:` or `data:`) or as base64 with its media type. */
export type ImagePart = {
  type: 'image';
  source: { kind: 'url'; url: string } | { kind: 'base64'; mediaType: string; data: string };
  detail?: 'low' | 'high' | 'auto' | 'original';
  cacheControl?: CacheControl;
};

/** A document or file, inline (base64 or plain text) or by URL. */
export type FilePart = {
  type: 'file';
  source:
    | { kind: 'url'; url: string }
    | { kind: 'base64'; mediaType: string; data: string }
    | { kind: 'text'; mediaType: string; data: string };
  filename?: string;
  cacheControl?: CacheControl;
};

/** A call the model made. `arguments` is JSON text (possibly `""` for none). */
export type ToolCallPart = {
  type: 'tool-call';
  callId: string;
  name: string;
  arguments: string;
  cacheControl?: CacheControl;
};

/** The caller's answer to one tool call. */
export type ToolResultPart = {
  type: 'tool-result';
  callId: string;
  content: Array<TextPart | ImagePart | FilePart>;
  isError?: boolean;
  cacheControl?: CacheControl;
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

/** What a response may contain, in output order. */
export type OutputPart = TextPart | RefusalPart | ReasoningPart | ToolCallPart;
