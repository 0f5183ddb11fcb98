import { isDeepStrictEqual } from 'node:util';
import type { Codec, JSONObject, OpenAPIDescription } from '@signalbox/core';
import type { Endpoint, Engine } from '@signalbox/engine';
import { describeAdminOpenAPI } from './describe-admin-openapi';
import { describeErrorResponses, RETRY_AFTER_HEADER } from './describe-error-responses';

export type OpenAPIDocumentOptions = {
  engine: Engine;
  /** Where the host mounts the admin router (`app.use('/admin', …)`); `false` leaves the admin API out. Default `/admin`. */
  adminPath?: string | false;
  /** The server URL the paths are relative to (where the gateway is mounted). Default `/`. */
  serverURL?: string;
  /** The document's `info.version`. Default `0.1.0`. */
  version?: string;
};

type Components = Required<OpenAPIDescription['components']>;

/** Endpoints answered by the gateway alone: no upstream failure can reach their callers. */
const GATEWAY_ONLY_KINDS: ReadonlySet<Endpoint['kind']> = new Set(['models', 'stored-response', 'stored-input-items']);

/**
 * The gateway's OpenAPI 3.1 document: the endpoints the engine's registry mounted (each described
 * by its codec, at the path its descriptor declares), their error answers in the protocol's
 * envelope, the request-id and `Retry-After` headers, and the admin API. A codec without
 * `describeOpenAPI` is left out. Throws when two codecs declare one component name differently.
 * @see https://spec.openapis.org/oas/v3.1.0
 */
export function buildOpenAPIDocument(options: OpenAPIDocumentOptions): JSONObject {
  const { engine } = options;
  const modelIds = engine.routes.map(route => route.model);
  const components: Components = { schemas: {}, securitySchemes: {}, headers: { 'retry-after': RETRY_AFTER_HEADER }, parameters: {}, responses: {} };
  const descriptions = new Map<Codec, OpenAPIDescription>();
  for (const codec of engine.registry.codecs) {
    const description = codec.describeOpenAPI?.({ modelIds });
    if (!description) continue;
    descriptions.set(codec, description);
    mergeComponents(components, description.components);
    for (const header of codec.descriptor.requestIdHeaders) components.headers[header] = REQUEST_ID_HEADER;
  }
  const paths: Record<string, JSONObject> = {};
  const operationIds = new Map<string, number>();
  for (const endpoint of engine.registry.endpoints) {
    const operation = describeEndpoint(endpoint, engine.registry.codecs, descriptions);
    if (!operation) continue;
    // An operation served at several paths (a protocol's other version prefix) gets a numbered id: ids are unique in a document.
    const base = operation.operationId;
    if (typeof base === 'string') {
      const seen = operationIds.get(base) ?? 0;
      operationIds.set(base, seen + 1);
      if (seen > 0) operation.operationId = `${base}${seen + 1}`;
    }
    (paths[endpoint.path] ??= {})[endpoint.method.toLowerCase()] = operation;
  }
  if (options.adminPath !== false) addAdminAPI(paths, components, options.adminPath ?? '/admin', descriptions, engine);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Signalbox LLM gateway',
      version: options.version ?? '0.1.0',
      description:
        'The interfaces this gateway serves (Responses, Messages, Chat Completions, Gemini: those its codecs describe), routed by exact model ID, and its admin API. Generated from the schemas the gateway validates with.',
    },
    servers: [{ url: options.serverURL ?? '/' }],
    paths,
    components: withoutEmpty(components),
  };
}

/** One endpoint's operation; a shared path (the models list) offers every codec's credential and answer shape. */
function describeEndpoint(endpoint: Endpoint, codecs: readonly Codec[], descriptions: ReadonlyMap<Codec, OpenAPIDescription>): JSONObject | undefined {
  const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'delete';
  const owners = endpoint.shared ? codecs.filter(codec => codec.descriptor.modelsPath === endpoint.path) : [endpoint.codec];
  const described = owners.flatMap(codec => {
    const description = descriptions.get(codec);
    const operation = description?.operations[endpoint.stream ? 'stream-generation' : endpoint.kind]?.[method];
    return description && operation ? [{ codec, description, operation }] : [];
  });
  const [first] = described;
  if (!first) return undefined;
  const success = (entry: (typeof described)[number]) => successResponse(entry.operation, entry.codec);
  const errorSchemas = unique(described.map(entry => ({ $ref: `#/components/schemas/${entry.description.errorSchema}` })));
  const operation: JSONObject = { ...first.operation };
  if (described.length > 1) {
    operation.security = unique(described.flatMap(entry => (entry.operation.security as JSONObject[] | undefined) ?? []));
    operation.description = 'Several interfaces share this path: the credential presented picks the answer\'s shape (a key in an interface\'s own header gets that interface\'s shape, a Bearer key the first Bearer interface\'s).';
  }
  const audience = GATEWAY_ONLY_KINDS.has(endpoint.kind) ? 'gateway-only' : 'upstream-calls';
  const errors = describeErrorResponses(errorSchemas.length === 1 ? errorSchemas[0]! : { oneOf: errorSchemas }, audience);
  operation.responses = { ...mergeSuccessResponses(described.map(success)), ...withHeaders(errors, requestIdHeadersOf(owners)) };
  return operation;
}

/** The request-id headers of the codecs answering at a path (every answer carries them, errors too). */
function requestIdHeadersOf(codecs: readonly Codec[]): JSONObject {
  return Object.fromEntries(codecs.flatMap(codec => codec.descriptor.requestIdHeaders).map(header => [header, { $ref: `#/components/headers/${header}` }]));
}

function withHeaders(responses: Record<string, JSONObject>, headers: JSONObject): Record<string, JSONObject> {
  return Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, { ...response, headers: { ...(response.headers as JSONObject | undefined), ...headers } }]));
}

/** The codec's success answers, each with the protocol's request-id headers. */
function successResponse(operation: JSONObject, codec: Codec): Record<string, JSONObject> {
  return withHeaders((operation.responses ?? {}) as Record<string, JSONObject>, requestIdHeadersOf([codec]));
}

/** Success answers of several codecs at one path: each status's JSON schema becomes a `oneOf` of theirs. */
function mergeSuccessResponses(all: Record<string, JSONObject>[]): Record<string, JSONObject> {
  const [first, ...rest] = all;
  if (!first || rest.length === 0) return first ?? {};
  const merged: Record<string, JSONObject> = {};
  for (const [status, response] of Object.entries(first)) {
    const schemas = unique(all.map(responses => (responses[status]?.content as Record<string, JSONObject> | undefined)?.['application/json']?.schema as JSONObject | undefined).filter(schema => schema !== undefined));
    const headers = Object.assign({}, ...all.map(responses => responses[status]?.headers as JSONObject | undefined)) as JSONObject;
    merged[status] = { ...response, headers, content: { 'application/json': { schema: schemas.length === 1 ? schemas[0]! : { oneOf: schemas } } } };
  }
  return merged;
}

/** The admin API, answering errors in the envelope of the gateway's Bearer interface (as its router does). */
function addAdminAPI(paths: Record<string, JSONObject>, components: Components, basePath: string, descriptions: ReadonlyMap<Codec, OpenAPIDescription>, engine: Engine): void {
  const errorCodec = engine.registry.bearerCodec;
  const errorSchemaName = descriptions.get(errorCodec)?.errorSchema;
  const admin = describeAdminOpenAPI(basePath);
  mergeComponents(components, { schemas: admin.schemas, securitySchemes: admin.securitySchemes });
  components.headers['x-request-id'] ??= REQUEST_ID_HEADER;
  const errors = describeErrorResponses(errorSchemaName ? { $ref: `#/components/schemas/${errorSchemaName}` } : { type: 'object' }, 'admin');
  for (const [path, item] of Object.entries(admin.paths)) {
    for (const operation of Object.values(item) as JSONObject[]) {
      const responses = operation.responses as Record<string, JSONObject>;
      operation.responses = withHeaders({ ...responses, ...errors }, { 'x-request-id': { $ref: '#/components/headers/x-request-id' } });
    }
    paths[path] = item;
  }
}

function mergeComponents(into: Components, from: OpenAPIDescription['components']): void {
  for (const [kind, entries] of Object.entries(from) as [keyof Components, Record<string, JSONObject> | undefined][]) {
    for (const [name, value] of Object.entries(entries ?? {})) {
      const existing = into[kind][name];
      if (existing !== undefined && !isDeepStrictEqual(existing, value)) {
        throw new Error(`Two descriptions declare the OpenAPI component ${kind}.${name} differently; rename one.`);
      }
      into[kind][name] = value;
    }
  }
}

/** A request-id response header, declared under `components.headers` once per header name. */
const REQUEST_ID_HEADER: JSONObject = { description: `The gateway's request id (\`req_…\`), also in the body of an error as \`request_id\`; quote it when reporting a problem.`, schema: { type: 'string' } };

function unique<T>(values: readonly T[]): T[] {
  return values.filter((value, index) => values.findIndex(other => isDeepStrictEqual(other, value)) === index);
}

function withoutEmpty(components: Components): JSONObject {
  return Object.fromEntries(Object.entries(components).filter(([, entries]) => Object.keys(entries).length > 0));
}
