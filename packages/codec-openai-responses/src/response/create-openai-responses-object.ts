import { isJSONObject, type GenerationRequest, type JSONObject } from '@signalbox/core';
import {
  encodeOpenAIResponsesTextFormat,
  encodeOpenAIResponsesToolChoice,
} from '../request/encode-openai-responses-request';
import { encodeOpenAIResponsesTools } from '../request/encode-openai-responses-tools';

/**
 * The request-echo members of a Response object (`instructions`, `tools`, `temperature`, …), filled
 * from the client's own request with OpenAI's defaults. Computed once per response or stream.
 */
export function createOpenAIResponsesEcho(request: GenerationRequest): JSONObject {
  const options = request.providerOptions?.['openai-responses'] ?? {};
  const reasoningOptions = isJSONObject(options.reasoning) ? options.reasoning : {};
  const textOptions = isJSONObject(options.text) ? options.text : {};
  const instructions = request.system.map(part => part.text).join('\n\n');
  return {
    instructions: instructions === '' ? null : instructions,
    max_output_tokens: request.maxOutputTokens ?? null,
    model: request.model,
    parallel_tool_calls: request.parallelToolCalls ?? true,
    previous_response_id: null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: reasoningOptions.summary ?? null },
    // The gateway keeps every response whose request did not opt out, whatever the upstream.
    store: options.store !== false,
    temperature: request.temperature ?? 1,
    text: {
      format: request.responseFormat
        ? encodeOpenAIResponsesTextFormat(request.responseFormat)
        : { type: 'text' },
      ...(textOptions.verbosity !== undefined && { verbosity: textOptions.verbosity }),
    },
    tool_choice: request.toolChoice ? encodeOpenAIResponsesToolChoice(request.toolChoice) : 'auto',
    tools: encodeOpenAIResponsesTools(request.tools ?? [], (tool, name) => ({
      type: 'function',
      name,
      description: tool.description ?? null,
      parameters: tool.inputSchema,
      strict: tool.strict === true,
    })),
    top_p: request.topP ?? 1,
    truncation: typeof options.truncation === 'string' ? options.truncation : 'disabled',
    user: null,
    metadata: request.metadata ?? {},
  };
}

/** What varies between the Response objects of one answer (lifecycle events, the JSON body). */
export type OpenAIResponsesObjectFields = {
  id: string;
  createdAt: number;
  echo: JSONObject;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  output: JSONObject[];
  usage: JSONObject | null;
  error?: JSONObject | null;
  incompleteDetails?: JSONObject | null;
  completedAt?: number | null;
};

/**
 * A complete public Response object: every documented member present, nullable ones `null`, since
 * clients and SDKs read members without checking that they exist.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export function createOpenAIResponsesObject(fields: OpenAIResponsesObjectFields): JSONObject {
  return {
    id: fields.id,
    object: 'response',
    created_at: fields.createdAt,
    status: fields.status,
    background: false,
    completed_at: fields.completedAt ?? null,
    error: fields.error ?? null,
    incomplete_details: fields.incompleteDetails ?? null,
    ...fields.echo,
    output: fields.output,
    usage: fields.usage,
  };
}

/** `completed_at` in unix seconds, never before `created_at`. */
export function completionTime(createdAt: number): number {
  return Math.max(createdAt, Math.floor(Date.now() / 1000));
}
