import {
  assertNever,
  type JSONObject,
  type ToolChoice,
  type ToolDefinition,
  type TranslationWarning,
} from '@signalbox/core';
import { withDecodedCacheControl } from '../cache/anthropic-cache-control';
import type { AnthropicToolChoiceParam, AnthropicToolParam } from '../schema/anthropic-request-schema';

const DROPPED_TOOL_FIELDS = [
  'defer_loading',
  'eager_input_streaming',
  'input_examples',
  'allowed_callers',
] as const;

/** Client tools → IR tool definitions (with their cache breakpoints). Server tools were refused earlier. */
export function decodeAnthropicTools(
  tools: readonly AnthropicToolParam[],
  warnings: TranslationWarning[],
): ToolDefinition[] {
  return tools.map((tool, index) => {
    for (const field of DROPPED_TOOL_FIELDS) {
      if (tool[field] !== undefined && tool[field] !== null) {
        warnings.push({ type: 'unsupported-field', field: `tools.${index}.${field}` });
      }
    }
    const definition: ToolDefinition = {
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      inputSchema: tool.input_schema as JSONObject,
      ...(tool.strict !== undefined && { strict: tool.strict }),
    };
    return withDecodedCacheControl(definition, tool.cache_control);
  });
}

/** `tool_choice` → the IR choice plus `parallelToolCalls` (from `disable_parallel_tool_use`). */
export function decodeAnthropicToolChoice(choice: AnthropicToolChoiceParam): {
  toolChoice: ToolChoice;
  parallelToolCalls?: boolean;
} {
  const parallel =
    'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use !== undefined
      ? { parallelToolCalls: !choice.disable_parallel_tool_use }
      : {};
  switch (choice.type) {
    case 'auto':
      return { toolChoice: { type: 'auto' }, ...parallel };
    case 'any':
      return { toolChoice: { type: 'required' }, ...parallel };
    case 'tool':
      return { toolChoice: { type: 'tool', name: choice.name }, ...parallel };
    case 'none':
      return { toolChoice: { type: 'none' } };
    default:
      return assertNever(choice, 'Anthropic tool_choice');
  }
}
