import {
  assertNever,
  unsupportedParameter,
  type GenerationRequest,
  type JSONObject,
  type ToolDefinition,
} from '@signalbox/core';
import { withEncodedCacheControl } from '../cache/anthropic-cache-control';

/** IR tools → Messages client tools. `input_schema` must have an object root; `type` is added when missing. */
export function encodeAnthropicTools(tools: readonly ToolDefinition[]): JSONObject[] {
  return tools.map((tool, index) =>
    withEncodedCacheControl(
      {
        name: tool.name,
        ...(tool.description !== undefined && { description: tool.description }),
        input_schema: withObjectRoot(tool.inputSchema, `tools.${index}.inputSchema`),
        ...(tool.strict !== undefined && { strict: tool.strict }),
      },
      tool,
    ),
  );
}

function withObjectRoot(schema: JSONObject, path: string): JSONObject {
  if (schema.type === 'object') return schema;
  if (schema.type === undefined) return { type: 'object', ...schema };
  throw unsupportedParameter(path, "Anthropic tools need an input schema whose root is of type 'object'");
}

/**
 * IR `toolChoice` + `parallelToolCalls` → Messages `tool_choice` (`required` is `any`).
 * `parallelToolCalls: false` alone becomes `auto` with `disable_parallel_tool_use` when tools exist.
 */
export function encodeAnthropicToolChoice(request: GenerationRequest): JSONObject | undefined {
  const single = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  const choice = request.toolChoice;
  if (choice === undefined) {
    return request.parallelToolCalls === false && (request.tools?.length ?? 0) > 0
      ? { type: 'auto', ...single }
      : undefined;
  }
  switch (choice.type) {
    case 'auto':
      return { type: 'auto', ...single };
    case 'none':
      return { type: 'none' };
    case 'required':
      return { type: 'any', ...single };
    case 'tool':
      return { type: 'tool', name: choice.name, ...single };
    default:
      return assertNever(choice, 'IR tool choice');
  }
}
