import type { AnswerContext } from './answer-context';
import { answered, createGeminiIds, geminiFinishReason, geminiParts, geminiUsage, showsThoughts, type GeminiAnswerIds, type GeminiOutputCount, type GeminiPart } from './gemini-json';
import { googleErrorBody } from './google-error-body';
import { simulatorError } from './simulator-error';
import type { SimulatedStream, SSEFrame, SSEFrameKind } from './sse-frame';

/**
 * How `streamGenerateContent` frames its chunks: `?alt=sse` gives SSE `data:` events; without it
 * the API sends one JSON array whose elements arrive as they are generated.
 */
export type GeminiFraming = 'sse' | 'array';

/** The overload the API reports mid-stream and as a status: 503 `UNAVAILABLE`. */
export const GEMINI_OVERLOADED = simulatorError(503, 'The model is overloaded. Please try again later.');

/** One chunk's content before framing; `produced` is the running output count after it. */
type Piece = { parts: GeminiPart[]; produced: GeminiOutputCount };

type StreamState = { context: AnswerContext; ids: GeminiAnswerIds; framing: GeminiFraming; elements: number };

/**
 * `streamGenerateContent`: a chunk per thought token (with `includeThoughts`), per text token and
 * per whole function call, each a `GenerateContentResponse` with running usage; the last chunk
 * also carries the `finishReason` and the final usage. A thinking answer's signature rides on its
 * first function call, else on its last chunk.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export function createGeminiStream(context: AnswerContext, framing: GeminiFraming): SimulatedStream {
  const state: StreamState = { context, ids: createGeminiIds(context), framing, elements: 0 };
  return {
    frames: geminiFrames(state),
    errorFrame: () => frame(state, 'terminal', googleErrorBody(GEMINI_OVERLOADED), state.elements - 1).text,
    contentType: framing === 'sse' ? 'text/event-stream' : 'application/json',
  };
}

function* geminiFrames(state: StreamState): Generator<SSEFrame> {
  const { context, ids } = state;
  let held: Piece | undefined;
  if (context.directedFinish === undefined) {
    for (const piece of pieces(context, ids)) {
      if (held !== undefined) yield chunkFrame(state, 'token', held, false);
      held = piece;
    }
  }
  yield chunkFrame(state, 'terminal', held ?? { parts: [], produced: answered(context) }, true);
}

/** The answer cut into chunks, in order, before the signature is placed. */
function* pieces(context: AnswerContext, ids: GeminiAnswerIds): Generator<Piece> {
  const { plan } = context;
  const produced = { thoughts: 0, candidates: 0 };
  const all = geminiParts(context, ids);
  const signed = all.find(part => part.thoughtSignature !== undefined);
  if (plan.reasoning !== undefined) {
    for (const token of plan.reasoning.tokens) {
      produced.thoughts += 1;
      if (showsThoughts(context)) yield { parts: [{ text: token, thought: true }], produced: { ...produced } };
    }
  }
  const lastText = plan.textTokens.length - 1;
  for (const [index, token] of plan.textTokens.entries()) {
    produced.candidates += 1;
    const carriesSignature = index === lastText && signed?.functionCall === undefined && signed?.text !== undefined;
    yield { parts: [carriesSignature ? { text: token, thoughtSignature: ids.signature } : { text: token }], produced: { ...produced } };
  }
  for (const part of all) {
    if (part.functionCall !== undefined) yield { parts: [part], produced: answered(context) };
  }
  if (signed !== undefined && plan.textTokens.length === 0 && plan.toolCalls.length === 0) {
    yield { parts: [{ text: '', thoughtSignature: ids.signature }], produced: { ...produced } };
  }
}

function chunkFrame(state: StreamState, kind: SSEFrameKind, piece: Piece, last: boolean): SSEFrame {
  const { context, ids } = state;
  const candidate: Record<string, unknown> = piece.parts.length > 0 ? { content: { parts: piece.parts, role: 'model' } } : {};
  if (last) candidate.finishReason = geminiFinishReason(context);
  candidate.index = 0;
  const chunk = {
    candidates: [candidate],
    usageMetadata: geminiUsage(context, last ? answered(context) : piece.produced),
    modelVersion: context.request.model,
    responseId: ids.responseId,
  };
  state.elements += 1;
  return frame(state, kind, chunk, state.elements - 1);
}

/** One element in the stream's framing; `before` elements were written ahead of it. */
function frame(state: StreamState, kind: SSEFrameKind, body: unknown, before: number): SSEFrame {
  const json = JSON.stringify(body);
  if (state.framing === 'sse') return { kind, text: `data: ${json}\r\n\r\n` };
  const opening = before === 0 ? '[' : ',\r\n';
  return { kind, text: `${opening}${json}${kind === 'terminal' ? ']' : ''}` };
}
