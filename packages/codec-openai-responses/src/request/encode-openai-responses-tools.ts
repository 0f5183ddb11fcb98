import type { JSONObject, ToolDefinition } from '@switchyard/core';
import { checkOpenAIToolName } from '@switchyard/codec-openai-shared';

/**
 * IR tools → Responses tools: flat function tools, and functions that carry a namespace grouped
 * again into one `namespace` tool per namespace (at the place of its first function), under their
 * own names. `strict` only when the IR says so (arbitrary schemas fail strict mode).
 */
export function encodeOpenAIResponsesTools(tools: readonly ToolDefinition[]): JSONObject[] {
  const encoded: JSONObject[] = [];
  const namespaces = new Map<string, JSONObject[]>();
  tools.forEach((tool, index) => {
    const namespace = tool.namespace;
    if (namespace === undefined) {
      encoded.push(encodeFunctionTool(tool, checkOpenAIToolName(tool.name, index)));
      return;
    }
    let functions = namespaces.get(namespace.name);
    if (functions === undefined) {
      functions = [];
      namespaces.set(namespace.name, functions);
      encoded.push({ type: 'namespace', name: namespace.name, description: namespace.description ?? '', tools: functions });
    }
    functions.push(encodeFunctionTool(tool, namespace.tool));
  });
  return encoded;
}

function encodeFunctionTool(tool: ToolDefinition, name: string): JSONObject {
  return {
    type: 'function',
    name,
    ...(tool.description !== undefined && { description: tool.description }),
    parameters: tool.inputSchema,
    strict: tool.strict === true,
  };
}
