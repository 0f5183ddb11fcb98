import { GatewayError, type JSONObject } from '@signalbox/core';
import type { ClientStop, Interruption } from '../interruption/create-interruptions';
import { compactionTurnOutput } from '../conversations/compaction/compaction-turn-output';
import type { GenerationOutput } from '../generation/generation-output';
import { deliverAnswer } from './deliver-answer';
import type { ExchangeDependencies } from './exchange-dependencies';
import type { ExchangeState } from './exchange-state';
import { openExchangeBody } from './open-exchange-body';
import { runOnExchange } from './run-on-exchange';
import { serveRequest } from './serve-request';
import { summarizeConversation } from './summarize-conversation';

/**
 * One generation on the exchange: its body opened (stored state, compaction items) and decoded,
 * served by the route's targets and delivered; a body ending with a compaction trigger is
 * answered with the compaction of the rest.
 */
export function generateOnExchange(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  body: unknown,
  client: ClientStop,
): Promise<GenerationOutput> {
  return runOnExchange(state, dependencies, client, generate, body);
}

async function generate(state: ExchangeState, dependencies: ExchangeDependencies, body: unknown, interruption: Interruption): Promise<GenerationOutput> {
  const { codec } = state;
  const { signal } = interruption;
  const opening = openExchangeBody(state, dependencies, body);
  const { conversation, opened } = opening instanceof Promise ? await opening : opening;
  const { value: request, warnings } = codec.decodeRequest(opened.body, state.decodeOptions);
  if (opened.triggered && codec.compaction) {
    const compacted = await summarizeConversation(state, dependencies, interruption, { conversation: request, keptItems: [] }, warnings, signal);
    return compactionTurnOutput(codec.compaction, compacted.compaction, request, compacted.headers, state.transport?.formatFrame);
  }
  const answer = await serveRequest(state, dependencies, interruption, { request, body: opened.body, warnings, frameTap: conversation.tap, chainKey: conversation.chainKey, formatFrame: state.transport?.formatFrame }, signal);
  // Kept before the client has the answer: an agent's next request may name it at once.
  if (answer.kind === 'json' && conversation.keepAnswer) await conversation.keepAnswer(answer.body);
  return deliverAnswer(state, dependencies, answer);
}

/** Remote compaction on the exchange (`codec.compaction`): the protocol's compacted response. */
export function compactOnExchange(
  state: ExchangeState,
  dependencies: ExchangeDependencies,
  body: unknown,
  client: ClientStop,
): Promise<JSONObject> {
  return runOnExchange(state, dependencies, client, compact, body);
}

async function compact(state: ExchangeState, dependencies: ExchangeDependencies, body: unknown, interruption: Interruption): Promise<JSONObject> {
  const { compaction } = state.codec;
  if (!compaction) throw new GatewayError({ code: 'ENDPOINT_NOT_FOUND', message: 'This interface has no compaction endpoint.' });
  // A compaction may name its conversation by `previous_response_id` too; nothing of it is kept.
  const { opened } = await openExchangeBody(state, dependencies, body);
  const { value, warnings } = compaction.decodeCompactionRequest(opened.body);
  const compacted = await summarizeConversation(state, dependencies, interruption, value, warnings, interruption.signal);
  return compaction.encodeCompactedResponse(compacted.compaction);
}
