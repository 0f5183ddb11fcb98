import type { GenerationRequest, JSONObject, TranslationWarning } from '@signalbox/core';

/** Anthropic's smallest thinking budget. */
const MINIMUM_BUDGET_TOKENS = 1024;

/**
 * What reasoning settings become in a Messages body (and the `max_tokens` they may need).
 * `refused`: the request asked for thinking that Anthropic would refuse here, so none is sent.
 */
export type EncodedAnthropicThinking = { thinking?: JSONObject; effort?: string; maxTokens: number; refused?: true };

/**
 * IR reasoning → `thinking` (+ `output_config.effort`). A budget becomes `enabled` thinking with
 * `budget_tokens < max_tokens`; an effort becomes `adaptive` thinking (`minimal` → `low`); `none`
 * disables thinking. Thinking with a forced tool choice is a 400 upstream, so thinking is dropped then.
 */
export function encodeAnthropicThinking(
  request: GenerationRequest,
  defaultMaxTokens: number,
  warnings: TranslationWarning[],
): EncodedAnthropicThinking {
  const maxTokens = request.maxOutputTokens ?? defaultMaxTokens;
  const reasoning = request.reasoning;
  if (reasoning === undefined || (reasoning.budgetTokens === undefined && reasoning.effort === undefined))
    return { maxTokens };
  if (reasoning.effort === 'none' && reasoning.budgetTokens === undefined)
    return { thinking: { type: 'disabled' }, maxTokens };
  const forced = request.toolChoice?.type === 'required' || request.toolChoice?.type === 'tool';
  if (forced) {
    warnings.push({
      type: 'lossy-conversion',
      field: 'reasoning',
      details: 'Anthropic refuses thinking with a forced tool choice; thinking was not enabled.',
    });
    return { maxTokens, refused: true };
  }
  if (toolLoopWithoutSignedThinking(request)) {
    warnings.push({
      type: 'lossy-conversion',
      field: 'reasoning',
      details:
        'In a tool loop Anthropic needs the last assistant turn to start with its signed thinking, which this history lacks; thinking was not enabled.',
    });
    return { maxTokens, refused: true };
  }
  if (reasoning.budgetTokens !== undefined)
    return encodeBudget(reasoning.budgetTokens, request, defaultMaxTokens, warnings);
  const effort = reasoning.effort === 'minimal' ? 'low' : reasoning.effort;
  return { thinking: { type: 'adaptive' }, ...(effort !== undefined && { effort }), maxTokens };
}

/**
 * True when the conversation answers tool calls (it ends with tool results) and the assistant turn
 * that made them does not start with replayable thinking: with thinking on, Anthropic refuses that
 * ("a final assistant message must start with a thinking block").
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
function toolLoopWithoutSignedThinking(request: GenerationRequest): boolean {
  const messages = request.messages;
  // Results and a following user note become one user turn upstream: look past trailing user messages.
  const lastNotUser = messages.findLast(message => message.role !== 'user');
  if (lastNotUser?.role !== 'tool') return false;
  const assistant = messages.findLast(message => message.role === 'assistant');
  if (!assistant || assistant.role !== 'assistant') return false;
  const first = assistant.content[0];
  return !(first?.type === 'reasoning' && (first.signature !== undefined || first.redactedData !== undefined));
}

function encodeBudget(
  requested: number,
  request: GenerationRequest,
  defaultMaxTokens: number,
  warnings: TranslationWarning[],
): EncodedAnthropicThinking {
  if (request.reasoning?.effort !== undefined) {
    warnings.push({
      type: 'lossy-conversion',
      field: 'reasoning.effort',
      details: 'A thinking budget was given; the effort was dropped.',
    });
  }
  let budget = Math.max(requested, MINIMUM_BUDGET_TOKENS);
  if (budget !== requested) {
    warnings.push({
      type: 'lossy-conversion',
      field: 'reasoning.budgetTokens',
      details: `Raised to Anthropic's minimum of ${MINIMUM_BUDGET_TOKENS}.`,
    });
  }
  // Thinking tokens count toward max_tokens: without a client cap, make room; with one, fit the budget under it.
  if (request.maxOutputTokens === undefined) {
    const maxTokens = budget >= defaultMaxTokens ? budget + defaultMaxTokens : defaultMaxTokens;
    return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens };
  }
  const maxTokens = request.maxOutputTokens;
  if (budget < maxTokens) return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens };
  budget = maxTokens - 1;
  if (budget < MINIMUM_BUDGET_TOKENS) {
    warnings.push({
      type: 'lossy-conversion',
      field: 'reasoning.budgetTokens',
      details: 'max_tokens leaves no room for thinking; thinking was not enabled.',
    });
    return { maxTokens, refused: true };
  }
  warnings.push({
    type: 'lossy-conversion',
    field: 'reasoning.budgetTokens',
    details: `Lowered to ${budget} to stay below max_tokens.`,
  });
  return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens };
}
