import type { AnswerContext } from './answer-context';
import type { AnswerPlan } from './answer-plan';
import { assertNever } from './assert-never';
import { createId } from './create-id';

/** Ids of one Messages answer: the fresh `msg_` id and one deterministic `toolu_` id per tool call. */
export type MessagesIds = { message: string; tools: readonly string[] };

/** Messages `stop_reason` values the simulator produces. */
export type MessagesStopReason = 'end_turn' | 'max_tokens' | 'tool_use' | 'stop_sequence';

type ContentBlock = Record<string, unknown> & { type: string };

/** Ids for one answer: a fresh message id; tool-use ids from the plan, so equal requests get equal calls. */
export function createMessagesIds(plan: AnswerPlan): MessagesIds {
  return { message: createId('msg_'), tools: plan.toolCalls.map(call => `toolu_${call.idSuffix}`) };
}

/**
 * `POST /v1/messages` non-streaming body: a `Message` as the API writes it (`container` and
 * `diagnostics` are `null` in its answers, absent from `message_start`).
 */
export function encodeMessagesJson(context: AnswerContext): Record<string, unknown> {
  const ids = createMessagesIds(context.plan);
  return {
    ...messageHead(context, ids, buildMessagesContent(context.plan, ids)),
    stop_reason: messagesStopReason(context.plan),
    stop_sequence: context.plan.stopSequence ?? null,
    container: null,
    diagnostics: null,
    usage: buildMessagesUsage(context, context.plan.usage.outputTokens),
  };
}

/** The fields of a `Message` that do not change while it streams. */
export function messageHead(context: AnswerContext, ids: MessagesIds, content: readonly ContentBlock[]) {
  return {
    id: ids.message,
    type: 'message',
    role: 'assistant',
    model: context.request.model,
    content,
    stop_details: null,
  };
}

/** Final content blocks: thinking, text, then tool_use blocks. */
export function buildMessagesContent(plan: AnswerPlan, ids: MessagesIds): ContentBlock[] {
  const content: ContentBlock[] = [];
  if (plan.reasoning !== undefined) {
    content.push({ type: 'thinking', thinking: plan.reasoning.text, signature: plan.reasoning.signature });
  }
  if (plan.textTokens.length > 0) content.push({ type: 'text', text: plan.text });
  plan.toolCalls.forEach((call, index) => {
    content.push({ type: 'tool_use', id: ids.tools[index], name: call.name, input: call.input, caller: { type: 'direct' } });
  });
  return content;
}

/**
 * Messages usage: `input_tokens` counts only what was neither read from nor written to the cache
 * (the three add up to the prompt), and `cache_creation` splits the writes by lifetime;
 * `output_tokens` includes thinking. As in the API's answers, the thinking count is there only with
 * thinking and `server_tool_use` only after a server tool ran.
 */
export function buildMessagesUsage(context: AnswerContext, outputTokens: number) {
  const { plan, cache } = context;
  const written = cache.write5mTokens + cache.write1hTokens;
  return {
    input_tokens: plan.usage.inputTokens - cache.readTokens - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cache.readTokens,
    cache_creation: { ephemeral_5m_input_tokens: cache.write5mTokens, ephemeral_1h_input_tokens: cache.write1hTokens },
    output_tokens: outputTokens,
    ...thinkingDetails(plan),
    service_tier: 'standard',
    inference_geo: 'not_available',
  };
}

/** `output_tokens_details`, for an answer that thought. */
export function thinkingDetails(plan: AnswerPlan): { output_tokens_details?: { thinking_tokens: number } } {
  return plan.reasoning === undefined ? {} : { output_tokens_details: { thinking_tokens: plan.usage.reasoningTokens } };
}

/**
 * The plan's finish in Messages words.
 * @see https://docs.anthropic.com/en/api/messages (`stop_reason`)
 */
export function messagesStopReason(plan: AnswerPlan): MessagesStopReason {
  switch (plan.finish) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'stop-sequence':
      return 'stop_sequence';
    default:
      return assertNever(plan.finish, 'answer finish');
  }
}
