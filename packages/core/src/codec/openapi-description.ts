import type { JSONObject } from '../json';

/** What a codec is told when it describes its endpoints: facts of the gateway it is mounted in. */
export type OpenAPIDescribeOptions = {
  /** The route table's model IDs, in config order: the values a request's `model` may take. */
  modelIds: readonly string[];
};

/**
 * The endpoint kinds a codec describes, one per kind of endpoint the gateway can mount for it
 * (generation, its streaming path when the protocol has one, token count, compaction, models
 * list, a stored response, its input items).
 */
export type OpenAPIEndpointKind =
  | 'generation'
  | 'stream-generation'
  | 'token-count'
  | 'compaction'
  | 'models'
  | 'stored-response'
  | 'stored-input-items';

/**
 * One protocol's part of the gateway's OpenAPI 3.1 document: an Operation Object per endpoint kind
 * and HTTP method (lower-case, as in a Path Item), and the components its operations refer to
 * (`#/components/…`). The gateway keeps only the operations of endpoints it actually mounted, at
 * the paths the codec's descriptor declares, so the document never lists an endpoint that answers 404.
 * Component names are global to the document: two codecs may declare the same name only with the
 * same content (the two OpenAI protocols share their error envelope and Bearer scheme).
 * @see https://spec.openapis.org/oas/v3.1.0#operation-object
 */
export type OpenAPIDescription = {
  operations: Partial<Record<OpenAPIEndpointKind, Partial<Record<'get' | 'post' | 'delete', JSONObject>>>>;
  components: {
    schemas?: Record<string, JSONObject>;
    securitySchemes?: Record<string, JSONObject>;
    headers?: Record<string, JSONObject>;
    parameters?: Record<string, JSONObject>;
    responses?: Record<string, JSONObject>;
  };
  /** The name of the protocol's error envelope under `components.schemas`, for endpoints that answer in it (the admin API). */
  errorSchema: string;
};
