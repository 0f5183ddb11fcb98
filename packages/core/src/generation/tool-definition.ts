import type { JSONObject } from '../json';

/** A function tool the model may call; `inputSchema` is a JSON Schema whose root is an object. */
export type ToolDefinition = {
  name: string;
  description?: string;
  inputSchema: JSONObject;
  strict?: boolean;
};
