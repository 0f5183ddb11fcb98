import {
  invalidParameter,
  isJSONObject,
  unsupportedParameter,
  type JSONObject,
  type ToolChoice,
  type ToolDefinition,
} from '@switchyard/core';
import { functionToolSchema, toolChoiceSchema } from './openai-responses-request-schema';
import { parseAt } from './parse-at';

/**
 * Flat Responses function tools → IR tools. Built-in tools (`web_search`, `file_search`, `mcp`, …)
 * cannot be served by other vendors → `UNSUPPORTED_PARAMETER` naming `tools.N.type`.
 */
export function decodeOpenAIResponsesTools(tools: readonly unknown[]): ToolDefinition[] {
  return tools.map((tool, index) => {
    if (!isJSONObject(tool)) throw invalidParameter(['tools', index], 'Expected a tool object');
    if (tool.type !== 'function') {
      throw unsupportedParameter(
        ['tools', index, 'type'],
        `tools of type '${String(tool.type)}' are not supported; only function tools are`,
      );
    }
    const parsed = parseAt(functionToolSchema, tool, ['tools', index]);
    const definition: ToolDefinition = {
      name: parsed.name,
      inputSchema: (parsed.parameters as JSONObject | null | undefined) ?? { type: 'object', properties: {} },
    };
    if (parsed.description) definition.description = parsed.description;
    if (typeof parsed.strict === 'boolean') definition.strict = parsed.strict;
    return definition;
  });
}

/** `auto` / `none` / `required` / `{type:'function', name}` → IR; other choice objects are refused. */
export function decodeOpenAIResponsesToolChoice(toolChoice: unknown): ToolChoice {
  const parsed = parseAt(toolChoiceSchema, toolChoice, ['tool_choice']);
  if (typeof parsed === 'string') return { type: parsed };
  if (parsed.type !== 'function') {
    throw unsupportedParameter(
      ['tool_choice'],
      `tool_choice of type '${parsed.type}' is not supported; use 'auto', 'none', 'required' or {type:'function', name}`,
    );
  }
  if (parsed.name === undefined) throw invalidParameter(['tool_choice', 'name'], 'Required');
  return { type: 'tool', name: parsed.name };
}
