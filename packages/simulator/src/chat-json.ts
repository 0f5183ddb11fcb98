import type { AnswerContext } from './answer-context';
import type { AnswerPlan } from './answer-plan';
import { assertNever } from './assert-never';
import { createId } from './create-id';

/** Ids of one Chat answer: the fresh `chatcmpl-` id and one deterministic `call_` id per tool call. */
export type ChatIds = { completion: string; calls: readonly string[] };

/** Chat `finish_reason` values the simulator produces. */
export type ChatFinishReason = 'stop' | 'length' | 'tool_calls';

/** Constant fingerprint, so clients that log it see something stable. */
export const SIMULATOR_FINGERPRINT = 'fp_simulator';

/** Ids for one answer: a fresh completion id; call ids from the plan, so equal requests get equal calls. */
export function createChatIds(plan: AnswerPlan): ChatIds {
  return { completion: createId('chatcmpl-'), calls: plan.toolCalls.map(call => `call_${call.idSuffix}`) };
}

/** `POST /v1/chat/completions` non-streaming body: a complete `ChatCompletion` (SDK 7.57 type). */
export function encodeChatJson(context: AnswerContext): Record<string, unknown> {
  const { plan } = context;
  const ids = createChatIds(plan);
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: plan.text === '' && plan.toolCalls.length > 0 ? null : plan.text,
    refusal: null,
    annotations: [],
  };
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call, index) => ({
      id: ids.calls[index],
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: ids.completion,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.request.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: chatFinishReason(plan) }],
    usage: buildChatUsage(context),
    service_tier: 'default',
    system_fingerprint: SIMULATOR_FINGERPRINT,
  };
}

/**
 * Chat usage: prompt/completion/total plus both detail objects; `cached_tokens` (read from the
 * prompt cache) is part of `prompt_tokens`. No audio, no reasoning.
 */
export function buildChatUsage(context: AnswerContext) {
  const { inputTokens, outputTokens, reasoningTokens } = context.plan.usage;
  return {
    prompt_tokens: inputTokens,
    completion_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
    prompt_tokens_details: { cached_tokens: context.cache.readTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/**
 * The plan's finish in Chat words; a stop sequence is a plain `stop` here, because Chat does not
 * say which sequence matched.
 * @see https://platform.openai.com/docs/api-reference/chat/object (`finish_reason`)
 */
export function chatFinishReason(plan: AnswerPlan): ChatFinishReason {
  switch (plan.finish) {
    case 'stop':
    case 'stop-sequence':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    default:
      return assertNever(plan.finish, 'answer finish');
  }
}
