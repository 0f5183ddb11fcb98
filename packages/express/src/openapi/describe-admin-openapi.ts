import { ADMIN_OPERATIONS, describeAdminOpenAPISchemas, type AdminOperation, type AdminSchemaName } from '@signalbox/accounts';
import type { JSONObject } from '@signalbox/core';

/** The console token scheme: the admin token or an account's console token, as `Authorization: Bearer`. */
const CONSOLE_TOKEN_SCHEME = 'consoleToken';

const SECURITY = [{ [CONSOLE_TOKEN_SCHEME]: [] }];
const reference = (name: AdminSchemaName): JSONObject => ({ $ref: `#/components/schemas/${name}` });
const ID_PARAMETER: JSONObject = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

/**
 * The admin API's paths (under `basePath`, where the host mounts `createAdminRouter`), its schemas
 * and the console token scheme, for the OpenAPI document. Operations carry no error answers yet:
 * the document adds them in the envelope of the gateway's Bearer interface, as the router renders them.
 */
export function describeAdminOpenAPI(basePath: string): { paths: Record<string, JSONObject>; schemas: Record<string, JSONObject>; securitySchemes: Record<string, JSONObject> } {
  const { schemas, queries } = describeAdminOpenAPISchemas();
  const paths: Record<string, JSONObject> = {};
  for (const operation of ADMIN_OPERATIONS) {
    const path = `${basePath}${operation.path.replaceAll(':id', '{id}')}`;
    paths[path] = { ...paths[path], [operation.method]: operationOf(operation, queries) };
  }
  return {
    paths,
    schemas,
    securitySchemes: {
      [CONSOLE_TOKEN_SCHEME]: {
        type: 'http',
        scheme: 'bearer',
        description: 'A console token as `Authorization: Bearer`: the admin token (`sbx-admin-…`) sees every account, an account\'s console token (`sbx-console-…`) only its own. An API key is refused.',
      },
    },
  };
}

function operationOf(operation: AdminOperation, queries: ReturnType<typeof describeAdminOpenAPISchemas>['queries']): JSONObject {
  const { describe: definition } = operation;
  const parameters: JSONObject[] = operation.path.includes(':id') ? [ID_PARAMETER] : [];
  if (definition.query === 'accountId') parameters.push({ name: 'accountId', in: 'query', required: false, schema: { type: 'string' } });
  else if (definition.query) {
    for (const [name, schema] of Object.entries(queries[definition.query])) parameters.push({ name, in: 'query', required: false, schema });
  }
  if (definition.csvFormat) parameters.push({ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['json', 'csv'], default: 'json' } });
  const content: JSONObject = {};
  if (definition.answer !== 'text/csv') content['application/json'] = { schema: reference(definition.answer) };
  if (definition.answer === 'text/csv' || definition.csvFormat) {
    const when = definition.csvFormat ? 'With `format=csv`: every' : 'Every';
    content['text/csv'] = { schema: { type: 'string', description: `${when} matching row, a header row first (RFC 4180).` } };
  }
  return {
    operationId: definition.operationId,
    summary: definition.summary,
    tags: [definition.tag],
    security: SECURITY,
    ...(parameters.length > 0 && { parameters }),
    ...(operation.body && { requestBody: { required: true, content: { 'application/json': { schema: reference(operation.body) } } } }),
    responses: { [String(operation.status)]: { description: operation.status === 201 ? 'Created.' : 'OK.', content } },
  };
}
