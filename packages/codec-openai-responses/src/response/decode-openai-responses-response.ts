import { createOpenAIBodyError } from '@signalbox/codec-openai-shared';
import { flattenNamespacedToolName } from '../tools/namespaced-tool-names';
import {
  GatewayError,
  type GenerationResponse,
  type OutputPart,
} from '@signalbox/core';
import type { z } from 'zod';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason';
import {
  functionCallOutputItemSchema,
  messageOutputItemSchema,
  openAIResponsesResponseSchema,
  reasoningOutputItemSchema,
} from './openai-responses-response-schema';
import { decodeOpenAIResponsesUsage } from './openai-responses-usage';
import { readCommonMessageItem, readCommonResponsesResponse } from './read-common-responses-response';

/**
 * An upstream's Response JSON → IR. A `failed` response becomes the upstream's error (thrown); a
 * body that is not a Response is `UPSTREAM_FAILED`. Output item types without an IR part are skipped.
 */
export function decodeOpenAIResponsesResponse(body: unknown): GenerationResponse {
  const response = readCommonResponsesResponse(body) ?? parseUpstream(openAIResponsesResponseSchema, body);
  if (response.status === 'failed') {
    throw createOpenAIBodyError({
      ...(response.error?.type && { type: response.error.type }),
      ...(response.error?.code && { code: response.error.code }),
      message: response.error?.message ?? 'The response failed.',
    });
  }
  const content: OutputPart[] = [];
  let hasFunctionCall = false;
  for (const item of response.output) {
    if (item.type === 'function_call') hasFunctionCall = true;
    decodeOutputItem(item, content);
  }
  return {
    id: response.id,
    model: response.model ?? '',
    content,
    finishReason: mapOpenAIResponsesFinishReason(
      response.status,
      response.incomplete_details?.reason,
      hasFunctionCall,
    ),
    usage: decodeOpenAIResponsesUsage(response.usage),
  };
}

function decodeOutputItem(item: { type: string; [key: string]: unknown }, content: OutputPart[]): void {
  switch (item.type) {
    case 'message':
      for (const part of (readCommonMessageItem(item) ?? parseUpstream(messageOutputItemSchema, item)).content ?? []) {
        if (part.type === 'output_text') content.push({ type: 'text', text: part.text ?? '' });
        else if (part.type === 'refusal') content.push({ type: 'refusal', text: part.refusal ?? '' });
      }
      return;
    case 'function_call': {
      const call = parseUpstream(functionCallOutputItemSchema, item);
      content.push({
        type: 'tool-call',
        callId: call.call_id,
        // A function of a `namespace` tool is known in the IR by its flat name (`namespace__tool`).
        name: call.namespace ? flattenNamespacedToolName(call.namespace, call.name) : call.name,
        arguments: call.arguments ?? '',
      });
      return;
    }
    case 'reasoning': {
      const reasoning = parseUpstream(reasoningOutputItemSchema, item);
      const texts = [...(reasoning.summary ?? []), ...(reasoning.content ?? [])].map(entry => entry.text);
      const part: OutputPart = { type: 'reasoning', text: texts.join('\n\n') };
      if (reasoning.encrypted_content) part.encryptedContent = reasoning.encrypted_content;
      content.push(part);
      return;
    }
    default:
      // Built-in tool items (web_search_call, …) have no IR part; the gateway never asks for them.
      return;
  }
}

function parseUpstream<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'invalid body';
  throw new GatewayError({
    code: 'UPSTREAM_FAILED',
    message: `The upstream answered with a malformed Responses body (${where}).`,
    cause: result.error,
  });
}
