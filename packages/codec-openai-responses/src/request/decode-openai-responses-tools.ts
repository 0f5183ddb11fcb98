import {
  invalidParameter,
  isJSONObject,
  quoteClientValue,
  type JSONObject,
  type ToolChoice,
  type ToolDefinition,
} from '@signalbox/core';
import { flattenNamespacedToolName } from '../tools/namespaced-tool-names';
import { functionToolSchema, namespaceToolSchema, toolChoiceSchema } from './openai-responses-request-schema';
import { parseAt } from './parse-at';

/** The client's tools as the IR carries them, and those only a Responses upstream can run. */
export type DecodedOpenAIResponsesTools = {
  tools: ToolDefinition[];
  /**
   * Built-in tools (`web_search`, `file_search`, `mcp`, `computer_use_preview`, …), custom tools and
   * namespaces holding them, exactly as sent: OpenAI runs them, so no other upstream can.
   */
  responsesOnlyTools: JSONObject[];
};

/**
 * Responses tools → IR tools. Function tools become IR tools; the functions of a `namespace` tool
 * become IR tools with a flat, reversible name (`namespace__tool`) and their namespace attached.
 * Every other tool type is kept aside for a Responses upstream.
 */
export function decodeOpenAIResponsesTools(tools: readonly unknown[]): DecodedOpenAIResponsesTools {
  const decoded: DecodedOpenAIResponsesTools = { tools: [], responsesOnlyTools: [] };
  tools.forEach((tool, index) => {
    if (!isJSONObject(tool)) throw invalidParameter(['tools', index], 'Expected a tool object');
    if (tool.type === 'function') decoded.tools.push(decodeFunctionTool(tool, ['tools', index]));
    else if (tool.type === 'namespace' && isFunctionNamespace(tool)) decoded.tools.push(...decodeNamespaceTool(tool, index));
    else if (typeof tool.type === 'string') decoded.responsesOnlyTools.push(tool);
    else throw invalidParameter(['tools', index, 'type'], 'Expected a string');
  });
  refuseDuplicateNames(decoded.tools);
  return decoded;
}

function decodeFunctionTool(tool: unknown, path: (string | number)[]): ToolDefinition {
  const parsed = parseAt(functionToolSchema, tool, path);
  const definition: ToolDefinition = {
    name: parsed.name,
    inputSchema: (parsed.parameters as JSONObject | null | undefined) ?? { type: 'object', properties: {} },
  };
  if (parsed.description) definition.description = parsed.description;
  if (typeof parsed.strict === 'boolean') definition.strict = parsed.strict;
  return definition;
}

/** A namespace made only of functions translates; one holding custom tools stays Responses-only. */
function isFunctionNamespace(tool: JSONObject): boolean {
  return !Array.isArray(tool.tools) || tool.tools.every(entry => !isJSONObject(entry) || entry.type === 'function');
}

function decodeNamespaceTool(tool: JSONObject, index: number): ToolDefinition[] {
  const namespace = parseAt(namespaceToolSchema, tool, ['tools', index]);
  return namespace.tools.map((entry, position) => {
    const definition = decodeFunctionTool(entry, ['tools', index, 'tools', position]);
    const group: NonNullable<ToolDefinition['namespace']> = { name: namespace.name, tool: definition.name };
    if (namespace.description) group.description = namespace.description;
    return { ...definition, name: flattenNamespacedToolName(namespace.name, definition.name), namespace: group };
  });
}

/** A flat function named like a namespaced one (`crm__find` beside namespace `crm`'s `find`) would be ambiguous. */
function refuseDuplicateNames(tools: readonly ToolDefinition[]): void {
  const seen = new Set<string>();
  for (const tool of tools) {
    if (seen.has(tool.name)) {
      throw invalidParameter(['tools'], `Tool names must be unique; ${quoteClientValue(tool.name)} is declared twice (namespaced functions are also known as 'namespace__name')`);
    }
    seen.add(tool.name);
  }
}

/**
 * `auto` / `none` / `required` / `{type:'function', name}` → IR. Any other choice object
 * (`{type:'web_search'}`, `{type:'allowed_tools', …}`, `{type:'custom', name}`, a type added later)
 * has no IR form: `undefined`, and the caller keeps it for Responses upstreams only.
 */
export function decodeOpenAIResponsesToolChoice(toolChoice: unknown): ToolChoice | undefined {
  const parsed = parseAt(toolChoiceSchema, toolChoice, ['tool_choice']);
  if (typeof parsed === 'string') return { type: parsed };
  if (parsed.type !== 'function') return undefined;
  if (parsed.name === undefined) throw invalidParameter(['tool_choice', 'name'], 'Required');
  return { type: 'tool', name: parsed.name };
}
