import type { JSONObject, ToolDefinition } from '@signalbox/core';
import { checkOpenAIToolName } from '@signalbox/codec-openai-shared';

/**
 * IR tools → Responses tools: flat function tools, and functions that carry a namespace grouped
 * again into one `namespace` tool per namespace (at the place of its first function), under their
 * own names. `strict` only when the IR says so (arbitrary schemas fail strict mode). The response
 * echo passes its own `encodeFunction` (it shows every member, `null` when unset).
 */
export function encodeOpenAIResponsesTools(
  tools: readonly ToolDefinition[],
  encodeFunction: (tool: ToolDefinition, name: string, index: number) => JSONObject = encodeFunctionTool,
): JSONObject[] {
  const encoded: JSONObject[] = [];
  const namespaces = new Map<string, JSONObject[]>();
  tools.forEach((tool, index) => {
    const namespace = tool.namespace;
    if (namespace === undefined) {
      encoded.push(encodeFunction(tool, tool.name, index));
      return;
    }
    let functions = namespaces.get(namespace.name);
    if (functions === undefined) {
      functions = [];
      namespaces.set(namespace.name, functions);
      encoded.push({ type: 'namespace', name: namespace.name, description: namespace.description ?? '', tools: functions });
    }
    functions.push(encodeFunction(tool, namespace.tool, index));
  });
  return encoded;
}

function encodeFunctionTool(tool: ToolDefinition, name: string, index: number): JSONObject {
  return {
    type: 'function',
    name: checkOpenAIToolName(name, index),
    ...(tool.description !== undefined && { description: tool.description }),
    parameters: tool.inputSchema,
    strict: tool.strict === true,
  };
}
