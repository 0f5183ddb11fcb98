import {
  assertNever,
  createId,
  streamEndedEarly,
  type EncodeContext,
  type FinishReason,
  type GatewayError,
  type SSEMessage,
  type StreamEncoder,
  type StreamEvent,
  type Usage,
} from '@signalbox/core';
import {
  completionTime,
  createOpenAIResponsesEcho,
  createOpenAIResponsesObject,
} from '../response/create-openai-responses-object';
import {
  encodeOpenAIResponsesFailure,
  endedWithErrorFailure,
} from '../response/encode-openai-responses-failure';
import { mapOpenAIResponsesStatus } from '../response/map-openai-responses-status';
import { encodeOpenAIResponsesUsage } from '../response/openai-responses-usage';
import {
  appendPart,
  appendReasoning,
  appendToolCall,
  closeAllItems,
  closePart,
  closeReasoning,
  closeToolCall,
  openPart,
  openReasoning,
  openToolCall,
  snapshotOutput,
} from './encode-openai-responses-blocks';
import { packCarriedReasoning } from '../reasoning/carried-reasoning';
import { emit, emitTerminal, type EncoderState } from './openai-responses-encoder-state';

/**
 * IR events → the client's Responses SSE, in the full grammar the OpenAI SDK's `responses.stream()`
 * accepts: `response.created` + `response.in_progress`, one output item per block (text blocks
 * share a message item), then exactly one of `response.completed` / `.incomplete` / `.failed`.
 */
export function createOpenAIResponsesStreamEncoder(context: EncodeContext): StreamEncoder {
  return new OpenAIResponsesStreamEncoder({
    responseId: createId('resp_'),
    createdAt: context.createdAt,
    echo: createOpenAIResponsesEcho(context.request),
    tools: context.request.tools,
    sequenceNumber: 0,
    started: false,
    finished: false,
    output: [],
    message: undefined,
    blocks: new Map(),
    pending: [],
  });
}

/** One object per stream, its methods shared by all. */
class OpenAIResponsesStreamEncoder implements StreamEncoder {
  constructor(private readonly state: EncoderState) {}

  push(event: StreamEvent): SSEMessage[] {
    if (!this.state.finished) handleEvent(event, this.state);
    return this.take();
  }

  end(): SSEMessage[] {
    if (!this.state.finished) failResponse(this.state, streamEndedEarly());
    return this.take();
  }

  private take(): SSEMessage[] {
    const messages = this.state.pending;
    this.state.pending = [];
    return messages;
  }
}

function handleEvent(event: StreamEvent, state: EncoderState): void {
  if (event.type !== 'error') startResponse(state);
  switch (event.type) {
    case 'response-start':
      return;
    case 'text-start':
    case 'refusal-start':
      openPart(state, event.id, event.type === 'text-start' ? 'text' : 'refusal');
      return;
    case 'text-delta':
    case 'refusal-delta':
      return appendToPart(state, event.id, event.type === 'text-delta' ? 'text' : 'refusal', event.delta);
    case 'text-end':
    case 'refusal-end':
      return endPart(state, event.id);
    case 'reasoning-start':
      return openReasoning(state, event.id, event.redactedData);
    case 'reasoning-delta':
      return appendToReasoning(state, event.id, event.delta);
    case 'reasoning-end':
      return endReasoning(state, event.id, event.encryptedContent, event.signature);
    case 'tool-call-start':
      return openToolCall(state, event.id, event.callId, event.toolName);
    case 'tool-call-delta':
      return appendToToolCall(state, event.id, event.argumentsDelta);
    case 'tool-call-end':
      return endToolCall(state, event.id, event.arguments);
    case 'response-end':
      return endResponse(state, event.finishReason, event.usage);
    case 'error':
      return failResponse(state, event.error);
    default:
      return assertNever(event, 'IR stream event');
  }
}

/** `response.created` then `response.in_progress`, once, before anything else (SDK constraint 1). */
function startResponse(state: EncoderState): void {
  if (state.started) return;
  state.started = true;
  const response = createOpenAIResponsesObject({
    id: state.responseId,
    createdAt: state.createdAt,
    echo: state.echo,
    status: 'in_progress',
    output: [],
    usage: null,
  });
  emit(state, 'response.created', { response });
  emit(state, 'response.in_progress', { response });
}

/** A delta for a block never started (a lenient upstream decoder) opens it rather than losing text. */
function appendToPart(state: EncoderState, blockId: string, kind: 'text' | 'refusal', delta: string): void {
  const existing = state.blocks.get(blockId);
  const block =
    existing?.kind === 'text' || existing?.kind === 'refusal' ? existing : openPart(state, blockId, kind);
  appendPart(state, block, delta);
}

function endPart(state: EncoderState, blockId: string): void {
  const block = state.blocks.get(blockId);
  if (block?.kind === 'text' || block?.kind === 'refusal') closePart(state, blockId, block);
}

function appendToReasoning(state: EncoderState, blockId: string, delta: string): void {
  if (state.blocks.get(blockId)?.kind !== 'reasoning') openReasoning(state, blockId);
  const block = state.blocks.get(blockId);
  if (block?.kind === 'reasoning') appendReasoning(state, block, delta);
}

function endReasoning(
  state: EncoderState,
  blockId: string,
  encryptedContent: string | undefined,
  signature: string | undefined,
): void {
  const block = state.blocks.get(blockId);
  if (block?.kind !== 'reasoning') return;
  const carried =
    encryptedContent ??
    packCarriedReasoning({
      text: block.text,
      ...(signature !== undefined && { signature }),
      ...(block.redactedData !== undefined && { redactedData: block.redactedData }),
    });
  closeReasoning(state, blockId, block, carried);
}

function appendToToolCall(state: EncoderState, blockId: string, delta: string): void {
  const block = state.blocks.get(blockId);
  if (block?.kind === 'tool-call') appendToolCall(state, block, delta);
}

function endToolCall(state: EncoderState, blockId: string, finalArguments: string | undefined): void {
  const block = state.blocks.get(blockId);
  if (block?.kind === 'tool-call') closeToolCall(state, blockId, block, finalArguments);
}

/** Closes every open item, then the terminal event carrying the full `output` and `usage`. */
function endResponse(state: EncoderState, finishReason: FinishReason, usage: Usage): void {
  const { status, incompleteDetails } = mapOpenAIResponsesStatus(finishReason);
  closeAllItems(state, status === 'completed' ? 'completed' : 'incomplete');
  const response = createOpenAIResponsesObject({
    id: state.responseId,
    createdAt: state.createdAt,
    echo: state.echo,
    status,
    output: state.output,
    usage: encodeOpenAIResponsesUsage(usage),
    error: status === 'failed' ? endedWithErrorFailure() : null,
    incompleteDetails,
    completedAt: status === 'completed' ? completionTime(state.createdAt) : null,
  });
  emitTerminal(state, `response.${status}`, { response });
  state.finished = true;
}

/** The failure terminal: `response.failed` with the error and the output accumulated so far. */
function failResponse(state: EncoderState, error: GatewayError): void {
  startResponse(state);
  const response = createOpenAIResponsesObject({
    id: state.responseId,
    createdAt: state.createdAt,
    echo: state.echo,
    status: 'failed',
    output: snapshotOutput(state),
    usage: null,
    error: encodeOpenAIResponsesFailure(error),
  });
  emit(state, 'response.failed', { response });
  state.finished = true;
}
