import { parseArguments } from '../response/gemini-output-parts';
import {
  parseDataURL,
  type AssistantMessage,
  type FilePart,
  type GenerationRequest,
  type ImagePart,
  type JSONObject,
  type Message,
  type TextPart,
  type ToolResultPart,
  type TranslationWarning,
} from '@signalbox/core';

type Content = { role: 'user' | 'model'; parts: JSONObject[] };

/**
 * The signature Google documents for a function call Gemini did not make (another model's turn, a
 * client that cannot carry signatures): Gemini 3 refuses a turn whose first call has none.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export const FOREIGN_CALL_SIGNATURE = 'skip_thought_signature_validator';

/**
 * IR messages → `contents`, consecutive turns of one role merged (Gemini alternates `user` and
 * `model`). Tool results become `functionResponse` parts named after their call; system messages
 * are left to `encodeSystemInstruction`.
 */
export function encodeGeminiContents(messages: readonly Message[], warnings: TranslationWarning[]): Content[] {
  const names = new Map<string, string>();
  const contents: Content[] = [];
  const push = (role: Content['role'], parts: JSONObject[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'assistant':
        for (const part of message.content) if (part.type === 'tool-call') names.set(part.callId, part.name);
        push('model', encodeModelParts(message.content, warnings));
        break;
      case 'tool':
        push('user', message.content.flatMap(result => encodeToolResult(result, names, warnings)));
        break;
      case 'user':
        push('user', message.content.map(part => encodeUserPart(part, warnings)));
        break;
      case 'system':
        break;
    }
  }
  return contents;
}

/**
 * The request's system text, then the text of each system message in the conversation (Codex's
 * developer messages, Claude Code's system turns), as `systemInstruction` parts: Gemini has no system
 * role inside `contents`, and as user text the model would take them for the user's words. One that
 * follows a turn loses its place (warned).
 * @see https://ai.google.dev/api/generate-content#request-body
 */
export function encodeSystemInstruction(request: GenerationRequest, warnings: TranslationWarning[]): JSONObject[] {
  const parts: JSONObject[] = request.system.map(part => ({ text: part.text }));
  let turnSeen = false;
  request.messages.forEach((message, index) => {
    if (message.role !== 'system') {
      turnSeen = true;
      return;
    }
    if (turnSeen) warnings.push({ type: 'lossy-conversion', field: `messages.${index}`, details: 'a system message inside the conversation went into systemInstruction' });
    parts.push(...message.content.map(part => ({ text: part.text })));
  });
  return parts;
}

/**
 * An assistant turn's parts. Reasoning text goes as a thought part with its signature; a signature
 * without text (Gemini's, on a call or text) goes on the part that follows it, or alone on an empty
 * text part at the end; a turn's first call without one gets `FOREIGN_CALL_SIGNATURE`. Another
 * vendor's opaque reasoning is dropped (warned).
 */
function encodeModelParts(content: AssistantMessage['content'], warnings: TranslationWarning[]): JSONObject[] {
  const parts: JSONObject[] = [];
  let signature: string | undefined;
  const signed = (part: JSONObject): JSONObject => {
    if (signature === undefined) return part;
    const withSignature = { ...part, thoughtSignature: signature };
    signature = undefined;
    return withSignature;
  };
  for (const part of content) {
    if (part.type === 'reasoning') {
      if (part.text !== '') parts.push({ text: part.text, thought: true, ...(part.signature !== undefined && { thoughtSignature: part.signature }) });
      else if (part.signature !== undefined) signature = part.signature;
      if (part.redactedData !== undefined || part.encryptedContent !== undefined) {
        warnings.push({ type: 'lossy-conversion', field: 'reasoning', details: "another vendor's encrypted reasoning cannot go to Gemini" });
      }
    } else if (part.type === 'tool-call') {
      parts.push(signed({ functionCall: { id: part.callId, name: part.name, args: parseArguments(part.arguments) as JSONObject } }));
    } else parts.push(signed({ text: part.text }));
  }
  if (signature !== undefined) parts.push({ text: '', thoughtSignature: signature });
  const firstCall = parts.find(part => part.functionCall !== undefined);
  if (firstCall && firstCall.thoughtSignature === undefined) firstCall.thoughtSignature = FOREIGN_CALL_SIGNATURE;
  return parts;
}

/** A tool result: `{ output }` or `{ error }` text, its images and files as parts after it (warned). */
function encodeToolResult(result: ToolResultPart, names: ReadonlyMap<string, string>, warnings: TranslationWarning[]): JSONObject[] {
  const text = result.content.filter(part => part.type === 'text').map(part => part.text).join('\n');
  const name = names.get(result.callId) ?? result.callId;
  const media = result.content.filter(part => part.type !== 'text');
  if (media.length > 0) warnings.push({ type: 'lossy-conversion', field: 'tool-result', details: 'images and files of a tool result went as parts after it' });
  return [
    { functionResponse: { id: result.callId, name, response: result.isError ? { error: text } : { output: text } } },
    ...media.map(part => encodeUserPart(part, warnings)),
  ];
}

/** A user part: text, inline bytes (`inlineData`), or a file by URI (`fileData`). */
export function encodeUserPart(part: TextPart | ImagePart | FilePart, warnings: TranslationWarning[]): JSONObject {
  if (part.type === 'text') return { text: part.text };
  const { source } = part;
  if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  if (source.kind === 'text') {
    warnings.push({ type: 'lossy-conversion', field: 'file', details: 'a plain-text document went as text' });
    return { text: source.data };
  }
  const inline = parseDataURL(source.url);
  if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  return { fileData: { fileUri: source.url, ...(part.type === 'image' && { mimeType: mimeOfURL(source.url) }) } };
}

function mimeOfURL(url: string): string {
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  if (extension === 'png' || extension === 'gif' || extension === 'webp') return `image/${extension}`;
  return 'image/jpeg';
}
