import {
  invalidParameter,
  unsupportedParameter,
  type AssistantMessage,
  type FilePart,
  type ImagePart,
  type Message,
  type TextPart,
  type ToolResultPart,
  type TranslationWarning,
} from '@signalbox/core';
import type { GeminiContent, GeminiPart } from '../gemini-api';

/**
 * Matches each `functionResponse` to its `functionCall`: by `id` when the client sent one, else the
 * oldest unanswered call of that name. Calls without an id get one made of their place.
 */
type CallLedger = { unanswered: Map<string, string[]>; made: number };

/**
 * `contents` → IR messages. A `model` turn's thought parts become reasoning (their signature
 * kept); a signature on any other part becomes an empty reasoning part just before it, so it goes
 * back on the same part. A `user` turn's function responses become one tool message before its
 * other parts.
 * @see https://ai.google.dev/api/caching#Content
 */
export function decodeGeminiContents(contents: readonly GeminiContent[], warnings: TranslationWarning[]): Message[] {
  const ledger: CallLedger = { unanswered: new Map(), made: 0 };
  const messages: Message[] = [];
  contents.forEach((content, turn) => {
    const parts = content.parts ?? [];
    if (content.role === 'model') messages.push(decodeModelTurn(parts, turn, ledger));
    else if (content.role === 'user' || content.role === undefined || content.role === 'function') messages.push(...decodeUserTurn(parts, turn, ledger, warnings));
    else throw invalidParameter(['contents', turn, 'role'], "must be 'user' or 'model'");
  });
  return messages.filter(message => message.content.length > 0);
}

function decodeModelTurn(parts: readonly GeminiPart[], turn: number, ledger: CallLedger): AssistantMessage {
  const content: AssistantMessage['content'] = [];
  parts.forEach((part, index) => {
    const signature = part.thoughtSignature;
    if (part.thought === true) {
      // A streamed thought comes back as many parts: one reasoning part until a signature closes it.
      const last = content.at(-1);
      if (last?.type === 'reasoning' && last.signature === undefined && last.text !== '') last.text += part.text ?? '';
      else content.push({ type: 'reasoning', text: part.text ?? '' });
      if (signature !== undefined) (content.at(-1) as { signature?: string }).signature = signature;
      return;
    }
    if (signature !== undefined) content.push({ type: 'reasoning', text: '', signature });
    if (part.functionCall) {
      const { name, args, id } = part.functionCall;
      const callId = id ?? `call_${turn}_${index}`;
      ledger.unanswered.set(name, [...(ledger.unanswered.get(name) ?? []), callId]);
      content.push({ type: 'tool-call', callId, name, arguments: JSON.stringify(args ?? {}) });
    } else if (part.text !== undefined) {
      if (part.text !== '') content.push({ type: 'text', text: part.text });
    } else throw unsupportedParameter(['contents', turn, 'parts', index], 'a model turn may hold text, thoughts and function calls only');
  });
  return { role: 'assistant', content };
}

function decodeUserTurn(parts: readonly GeminiPart[], turn: number, ledger: CallLedger, warnings: TranslationWarning[]): Message[] {
  const results: ToolResultPart[] = [];
  const content: Array<TextPart | ImagePart | FilePart> = [];
  parts.forEach((part, index) => {
    if (part.functionResponse) results.push(decodeFunctionResponse(part.functionResponse, ledger));
    else content.push(decodeUserPart(part, ['contents', turn, 'parts', index], warnings));
  });
  return [
    ...(results.length > 0 ? [{ role: 'tool' as const, content: results }] : []),
    { role: 'user' as const, content },
  ];
}

function decodeFunctionResponse(response: NonNullable<GeminiPart['functionResponse']>, ledger: CallLedger): ToolResultPart {
  const waiting = ledger.unanswered.get(response.name) ?? [];
  const callId = response.id ?? waiting[0] ?? `call_${response.name}_${ledger.made++}`;
  ledger.unanswered.set(response.name, waiting.filter(id => id !== callId));
  const body = response.response ?? {};
  const keys = Object.keys(body);
  // Gemini's clients answer `{ output }` or `{ error }`; anything else goes as its JSON.
  if (keys.length === 1 && keys[0] === 'output' && typeof body.output === 'string') return { type: 'tool-result', callId, content: [{ type: 'text', text: body.output }] };
  if (keys.length === 1 && keys[0] === 'error' && typeof body.error === 'string') return { type: 'tool-result', callId, content: [{ type: 'text', text: body.error }], isError: true };
  return { type: 'tool-result', callId, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

/** A user part: text, inline bytes or a file by URI; code execution parts are Gemini's own. */
export function decodeUserPart(part: GeminiPart, path: (string | number)[], warnings: TranslationWarning[]): TextPart | ImagePart | FilePart {
  if (part.text !== undefined) return { type: 'text', text: part.text };
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    const source = { kind: 'base64' as const, mediaType: mimeType, data };
    return mimeType.startsWith('image/') ? { type: 'image', source } : { type: 'file', source };
  }
  if (part.fileData) {
    const { mimeType, fileUri } = part.fileData;
    if (mimeType?.startsWith('image/')) return { type: 'image', source: { kind: 'url', url: fileUri } };
    if (mimeType === undefined) warnings.push({ type: 'lossy-conversion', field: path.join('.'), details: 'a file without its mimeType' });
    return { type: 'file', source: { kind: 'url', url: fileUri } };
  }
  throw unsupportedParameter(path, 'a user part may hold text, inlineData, fileData or a functionResponse');
}
