import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { anthropicMessagesCodec } from '@signalbox/codec-anthropic-messages';
import { openAIChatCodec } from '@signalbox/codec-openai-chat';
import { openAIResponsesCodec } from '@signalbox/codec-openai-responses';
import {
  isJSONObject,
  type Codec,
  type EncodeContext,
  type GenerationRequest,
  type JSONObject,
  type SSEMessage,
  type StreamEvent,
  type TranslationWarning,
  unfinishedAnswerError,
} from '@signalbox/core';
import { formatSSEFrame } from '@signalbox/sse';
import { decodeSSEChunks, splitEvery } from '@signalbox/sse/testing';
import {
  parseSSEText,
  validateChatStream,
  validateMessagesStream,
  validateResponsesStream,
  type StreamVerdict,
} from '../stream-validators';

/** The three wire protocols by their short names. */
export const WIRES = ['responses', 'messages', 'chat'] as const;
export type Wire = (typeof WIRES)[number];

/** The gateway's real codecs, one per wire protocol. */
export const CODECS: Readonly<Record<Wire, Codec>> = {
  responses: openAIResponsesCodec,
  messages: anthropicMessagesCodec,
  chat: openAIChatCodec,
};

/** Every (upstream, client) pair: the nine translation directions. */
export const DIRECTIONS: ReadonlyArray<readonly [Wire, Wire]> = WIRES.flatMap(upstream =>
  WIRES.map(client => [upstream, client] as const),
);

/** The model ID clients send in these tests. */
export const CLIENT_MODEL = 'client-model';
/** The model name the gateway puts into upstream bodies. */
export const UPSTREAM_MODEL = 'upstream-model';
const CREATED_AT = 1_763_769_600;
const FIXTURES = join(__dirname, '..', '__fixtures__');

/** Client body fields a test adds (read-only literals welcome: bodies are plain JSON). */
export type ClientFields = Readonly<Record<string, unknown>>;

/** A minimal valid client body for `wire` (one user turn), with `extra` fields merged over it. */
export function clientBody(wire: Wire, extra: ClientFields = {}): JSONObject {
  const prompt = 'Weather in Oslo?';
  switch (wire) {
    case 'responses':
      return { model: CLIENT_MODEL, input: prompt, ...extra } as JSONObject;
    case 'messages':
      return {
        model: CLIENT_MODEL,
        max_tokens: 256,
        messages: [{ role: 'user', content: prompt }],
        ...extra,
      } as JSONObject;
    case 'chat':
      return { model: CLIENT_MODEL, messages: [{ role: 'user', content: prompt }], ...extra } as JSONObject;
  }
}

/** What a request translation produced: the upstream body, the warnings and the IR in between. */
export type RequestTranslation = {
  body: JSONObject;
  warnings: TranslationWarning[];
  request: GenerationRequest;
};

/** Client body → IR → upstream body, exactly as the engine does it (`decodeRequest` then `encodeRequest`). */
export function translateRequest(client: Wire, upstream: Wire, body: JSONObject): RequestTranslation {
  const decoded = CODECS[client].decodeRequest(body);
  const encoded = CODECS[upstream].encodeRequest(decoded.value, UPSTREAM_MODEL);
  return {
    body: encoded.value,
    warnings: [...decoded.warnings, ...encoded.warnings],
    request: decoded.value,
  };
}

/** A wire fixture's exact text (see `__fixtures__/README.md`). */
export function readWire(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/**
 * Upstream SSE text from JSON payloads, framed by the production formatter: Messages and Responses
 * frames carry `event: <type>`, Chat frames are data-only; a string payload is sent as it is (`[DONE]`).
 */
export function wireFrames(wire: Wire, payloads: ReadonlyArray<JSONObject | string>): string {
  return payloads
    .map(payload => {
      if (typeof payload === 'string') return formatSSEFrame({ data: payload });
      const event = wire === 'chat' ? undefined : String(payload.type);
      return formatSSEFrame({ event, data: JSON.stringify(payload) });
    })
    .join('');
}

function encodeContext(client: Wire, extra: ClientFields, stream: boolean): EncodeContext {
  const body = clientBody(client, { ...extra, ...(stream && { stream: true }) });
  return { request: CODECS[client].decodeRequest(body).value, createdAt: CREATED_AT };
}

/** What the client of a translated stream receives, framed as an SDK would read it, plus its verdict. */
export type StreamTranslation = {
  messages: SSEMessage[];
  /** The JSON data of every client frame (`[DONE]` left out). */
  data: JSONObject[];
  /** The exact SSE text the client receives. */
  text: string;
  ir: StreamEvent[];
  verdict: StreamVerdict;
};

/**
 * Upstream SSE text → upstream stream decoder → IR → client stream encoder → client SSE text, the
 * chain the engine runs on a translated route (an end the upstream left unfinished becomes its
 * failure, `unfinishedAnswerError`). Upstream bytes arrive in 5-byte chunks, as a real socket may cut them.
 */
export function translateStream(
  upstream: Wire,
  client: Wire,
  upstreamText: string,
  clientExtra: ClientFields = {},
): StreamTranslation {
  const decoder = CODECS[upstream].createStreamDecoder();
  const ir: StreamEvent[] = [];
  for (const message of decodeSSEChunks(splitEvery(new TextEncoder().encode(upstreamText), 5)))
    ir.push(...decoder.push(message).map(refuseUnfinished));
  ir.push(...decoder.end().map(refuseUnfinished));
  const encoder = CODECS[client].createStreamEncoder(encodeContext(client, clientExtra, true));
  const out: SSEMessage[] = [];
  for (const event of ir) out.push(...encoder.push(event));
  out.push(...encoder.end());
  const text = out.map(formatSSEFrame).join('');
  const messages = parseSSEText(text);
  return { messages, data: jsonData(messages), text, ir, verdict: validate(client, messages, clientExtra) };
}

/**
 * Upstream JSON answer → IR → the client's JSON answer (`decodeResponse` then `encodeResponse`), as
 * a translated route does it: an answer the upstream left unfinished throws its failure.
 */
export function translateResponse(
  upstream: Wire,
  client: Wire,
  upstreamBody: JSONObject,
  clientExtra: ClientFields = {},
): JSONObject {
  const decoded = CODECS[upstream].decodeResponse(upstreamBody);
  const unfinished = unfinishedAnswerError(decoded.finishReason);
  if (unfinished) throw unfinished;
  return CODECS[client].encodeResponse(decoded, encodeContext(client, clientExtra, false));
}

/** The protocol's strict stream validator (test/support); Chat's `expectUsage` follows the client's request. */
export function validate(
  client: Wire,
  messages: readonly SSEMessage[],
  clientExtra: ClientFields = {},
): StreamVerdict {
  switch (client) {
    case 'responses':
      return validateResponsesStream(messages);
    case 'messages':
      return validateMessagesStream(messages);
    case 'chat': {
      const options = clientExtra.stream_options;
      return validateChatStream(messages, {
        expectUsage: isJSONObject(options) && options.include_usage === true,
      });
    }
  }
}

/** The engine's rule for translated streams: an unfinished end is a failure, never a finish. */
function refuseUnfinished(event: StreamEvent): StreamEvent {
  if (event.type !== 'response-end') return event;
  const error = unfinishedAnswerError(event.finishReason);
  return error ? { type: 'error', error } : event;
}

function jsonData(messages: readonly SSEMessage[]): JSONObject[] {
  const data: JSONObject[] = [];
  for (const message of messages) {
    if (message.data === '[DONE]') continue;
    const parsed: unknown = JSON.parse(message.data);
    if (isJSONObject(parsed)) data.push(parsed);
  }
  return data;
}

/** The payloads of type `type` (Messages / Responses frames). */
export function ofType(data: readonly JSONObject[], type: string): JSONObject[] {
  return data.filter(entry => entry.type === type);
}

/** A nested member read without type noise: `at(body, 'messages', 0, 'content')`. */
export function at(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const key of path) {
    if (Array.isArray(current) && typeof key === 'number') current = current[key];
    else if (isJSONObject(current) && typeof key === 'string') current = current[key];
    else return undefined;
  }
  return current;
}

/** The same as `at`, for a value the test needs as an array (empty when it is not one). */
export function listAt(value: unknown, ...path: Array<string | number>): JSONObject[] {
  const found = at(value, ...path);
  return Array.isArray(found) ? found.filter(isJSONObject) : [];
}

/**
 * Edits SSE text frame by frame: `edit` returns the new frame text, or `undefined` to drop the frame.
 * Used to derive wire-exact variants (a cut stream, a missing event) from a fixture.
 */
export function editFrames(text: string, edit: (frame: string) => string | undefined): string {
  const frames = text.split('\n\n').filter(frame => frame !== '');
  return frames
    .flatMap(frame => {
      const edited = edit(frame);
      return edited === undefined ? [] : [`${edited}\n\n`];
    })
    .join('');
}

/** The text up to (not including) the first frame that contains `marker`: a stream cut by the network. */
export function cutBefore(text: string, marker: string): string {
  const index = text.indexOf(marker);
  if (index < 0) throw new Error(`test setup: marker ${marker} not in the fixture`);
  return text.slice(0, text.lastIndexOf('\n\n', index) + 2);
}

/** One content block as a Messages client assembles it from the stream. */
export type MessagesBlock = {
  index: number;
  block: JSONObject;
  text: string;
  json: string;
  thinking: string;
  signature: string;
};

/** The content blocks of a Messages stream, assembled from `content_block_start` and its deltas. */
export function messagesBlocks(data: readonly JSONObject[]): MessagesBlock[] {
  const blocks = new Map<number, MessagesBlock>();
  for (const event of data) {
    const index = Number(event.index);
    if (event.type === 'content_block_start' && isJSONObject(event.content_block)) {
      blocks.set(index, {
        index,
        block: event.content_block,
        text: '',
        json: '',
        thinking: '',
        signature: '',
      });
    }
    const block = blocks.get(index);
    if (event.type !== 'content_block_delta' || !block || !isJSONObject(event.delta)) continue;
    const delta = event.delta;
    if (delta.type === 'text_delta') block.text += String(delta.text);
    if (delta.type === 'input_json_delta') block.json += String(delta.partial_json);
    if (delta.type === 'thinking_delta') block.thinking += String(delta.thinking);
    if (delta.type === 'signature_delta') block.signature += String(delta.signature);
  }
  return [...blocks.values()];
}

/** One tool call as a Chat client assembles it from `delta.tool_calls` fragments. */
export type ChatToolCall = { index: number; id: string; name: string; arguments: string };

/** The tool calls of a Chat stream, keyed by their `index` as the OpenAI SDK accumulates them. */
export function chatToolCalls(data: readonly JSONObject[]): ChatToolCall[] {
  const calls = new Map<number, ChatToolCall>();
  for (const chunk of data) {
    for (const fragment of listAt(chunk, 'choices', 0, 'delta', 'tool_calls')) {
      const index = Number(fragment.index);
      const call = calls.get(index) ?? { index, id: '', name: '', arguments: '' };
      if (typeof fragment.id === 'string') call.id = fragment.id;
      const name = at(fragment, 'function', 'name');
      if (typeof name === 'string') call.name += name;
      const argumentsDelta = at(fragment, 'function', 'arguments');
      if (typeof argumentsDelta === 'string') call.arguments += argumentsDelta;
      calls.set(index, call);
    }
  }
  return [...calls.values()];
}

/** Every non-null `finish_reason` a Chat stream sent, in order. */
export function chatFinishReasons(data: readonly JSONObject[]): unknown[] {
  return data.map(chunk => at(chunk, 'choices', 0, 'finish_reason')).filter(reason => reason != null);
}

/** The Chat text (`delta.content`) a client shows. */
export function chatText(data: readonly JSONObject[]): string {
  return data
    .map(chunk => at(chunk, 'choices', 0, 'delta', 'content'))
    .filter(part => typeof part === 'string')
    .join('');
}

/** The final `response` object of a Responses stream (from its terminal event). */
export function responsesFinal(data: readonly JSONObject[]): JSONObject {
  const terminal = data.at(-1);
  const response = at(terminal, 'response');
  if (!isJSONObject(response))
    throw new Error(`the stream did not end with a response object: ${JSON.stringify(terminal)}`);
  return response;
}
