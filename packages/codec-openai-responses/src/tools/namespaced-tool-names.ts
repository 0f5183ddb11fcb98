import type { ToolDefinition } from '@signalbox/core';

/**
 * The longest tool name every upstream protocol takes (OpenAI Chat and Responses, Anthropic
 * Messages: 64 characters), so one flat name serves whichever target a route picks.
 */
const MAXIMUM_FLAT_NAME_LENGTH = 64;
const SEPARATOR = '__';
const HASH_LENGTH = 8;

/**
 * The flat name a function of a Responses `namespace` tool has in the IR and at upstreams without
 * namespaces: `namespace__tool`, or, when that is too long, its first characters plus a hash of the
 * whole (so two long names stay distinct). Deterministic, so a replayed `function_call` that carries
 * its `namespace` maps to the same name as the tool definition.
 */
export function flattenNamespacedToolName(namespace: string, tool: string): string {
  const joined = `${namespace}${SEPARATOR}${tool}`;
  if (joined.length <= MAXIMUM_FLAT_NAME_LENGTH) return joined;
  const prefix = joined.slice(0, MAXIMUM_FLAT_NAME_LENGTH - HASH_LENGTH - 1);
  return `${prefix}_${hashName(joined)}`;
}

/**
 * A tool call's IR name as the client knows it: the function's own name and its namespace when the
 * client declared it inside a `namespace` tool, the name unchanged otherwise.
 */
export function restoreNamespacedToolName(
  name: string,
  tools: readonly ToolDefinition[] | undefined,
): { name: string; namespace?: string } {
  const tool = tools?.find(candidate => candidate.name === name && candidate.namespace !== undefined);
  if (tool?.namespace === undefined) return { name };
  return { name: tool.namespace.tool, namespace: tool.namespace.name };
}

/** FNV-1a (32 bits) as 8 hex digits: short, stable and free of dependencies. */
function hashName(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(HASH_LENGTH, '0');
}
