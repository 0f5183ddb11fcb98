import type { JSONObject } from '../json';
import type { CacheControl } from './cache-control';

/** A function tool the model may call; `inputSchema` is a JSON Schema whose root is an object. */
export type ToolDefinition = {
  name: string;
  description?: string;
  inputSchema: JSONObject;
  strict?: boolean;
  /**
   * Set when the client declared this function inside a group (a Responses `namespace` tool). `name`
   * is then a flat alias, unique in the request and valid at every upstream, that the client's codec
   * maps back to `tool` within `name` in its answer; other codecs just use `name`.
   */
  namespace?: { name: string; description?: string; tool: string };
  cacheControl?: CacheControl;
};
