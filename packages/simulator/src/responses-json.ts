import type { AnswerContext } from './answer-context';
import { createId } from './create-id';
import { asRecord } from './read-text-content';

/** Ids of one Responses answer, shared by every event that names the same object. */
export type ResponsesIds = {
  response: string;
  reasoning: string;
  message: string;
  calls: ReadonlyArray<{ item: string; call: string }>;
};

type OutputItem = Record<string, unknown> & { type: string; id: string };

/** Fresh `resp_`, `rs_`, `msg_` and `fc_` item ids; `call_` call ids from the plan (equal requests, equal calls). */
export function createResponsesIds(context: AnswerContext): ResponsesIds {
  return {
    response: createId('resp_'),
    reasoning: createId('rs_'),
    message: createId('msg_'),
    calls: context.plan.toolCalls.map(call => ({ item: createId('fc_'), call: `call_${call.idSuffix}` })),
  };
}

/** `POST /v1/responses` non-streaming body: a complete `Response` (SDK 7.57 type). */
export function encodeResponsesJson(context: AnswerContext): Record<string, unknown> {
  const ids = createResponsesIds(context);
  return buildResponseObject(context, ids, buildResponsesOutput(context, ids));
}

/** The final output items, in order: reasoning, message, function calls. The last is `incomplete` on truncation. */
export function buildResponsesOutput(context: AnswerContext, ids: ResponsesIds): OutputItem[] {
  const { plan, request } = context;
  const items: OutputItem[] = [];
  if (plan.reasoning !== undefined) {
    const item: OutputItem = { id: ids.reasoning, type: 'reasoning', summary: [{ type: 'summary_text', text: plan.reasoning.text }] };
    if (request.includeEncryptedReasoning) item.encrypted_content = plan.reasoning.encryptedContent;
    if (!plan.reasoning.complete) item.status = 'incomplete';
    items.push(item);
  }
  if (plan.textTokens.length > 0) {
    items.push({
      id: ids.message,
      type: 'message',
      status: plan.finish === 'length' ? 'incomplete' : 'completed',
      content: [{ type: 'output_text', annotations: [], logprobs: [], text: plan.text }],
      role: 'assistant',
    });
  }
  plan.toolCalls.forEach((call, index) => {
    const callIds = ids.calls[index] as { item: string; call: string };
    items.push({
      id: callIds.item,
      type: 'function_call',
      status: 'completed',
      arguments: call.arguments,
      call_id: callIds.call,
      name: call.name,
      ...(call.namespace !== undefined && { namespace: call.namespace }),
    });
  });
  return items;
}

/**
 * A `Response` object: the snapshot of `response.created`/`in_progress` (output empty, usage null)
 * or the final one, echoing the request's settings the way the real API does.
 */
export function buildResponseObject(context: AnswerContext, ids: ResponsesIds, output: readonly OutputItem[] | undefined) {
  const { request, plan } = context;
  const body = request.body;
  const final = output !== undefined;
  const incomplete = final && plan.finish === 'length';
  const status = !final ? 'in_progress' : incomplete ? 'incomplete' : 'completed';
  const reasoning = asRecord(body.reasoning);
  return {
    id: ids.response,
    access_programs: null,
    object: 'response',
    created_at: context.createdAt,
    status,
    background: false,
    completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    error: null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: body.max_tool_calls ?? null,
    model: request.model,
    output: output ?? [],
    parallel_tool_calls: request.parallelToolCalls,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: reasoning?.effort ?? null, summary: reasoning?.summary ?? null },
    service_tier: 'default',
    store: body.store ?? true,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_logprobs: body.top_logprobs ?? 0,
    top_p: body.top_p ?? 1,
    truncation: body.truncation ?? 'disabled',
    usage: final ? buildResponsesUsage(context) : null,
    metadata: body.metadata ?? {},
    ...(typeof body.user === 'string' ? { user: body.user } : {}),
  };
}

/**
 * Responses usage: `cached_tokens` (read from the prompt cache) is part of `input_tokens`, and no
 * cache write is reported; reasoning tokens are part of output tokens.
 */
export function buildResponsesUsage(context: AnswerContext) {
  const { inputTokens, outputTokens, reasoningTokens } = context.plan.usage;
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: context.cache.readTokens, cache_write_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reasoningTokens },
    total_tokens: inputTokens + outputTokens,
  };
}
