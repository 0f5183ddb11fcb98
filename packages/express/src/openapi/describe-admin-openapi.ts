import { describeAdminOpenAPISchemas, type AdminQueryName, type AdminSchemaName } from '@signalbox/accounts';
import type { JSONObject } from '@signalbox/core';

/** The console token scheme: the admin token or an account's console token, as `Authorization: Bearer`. */
const CONSOLE_TOKEN_SCHEME = 'consoleToken';

const SECURITY = [{ [CONSOLE_TOKEN_SCHEME]: [] }];
const reference = (name: AdminSchemaName): JSONObject => ({ $ref: `#/components/schemas/${name}` });
const ID_PARAMETER: JSONObject = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

type AdminOperation = {
  operationId: string;
  summary: string;
  tag: string;
  body?: AdminSchemaName;
  answer: AdminSchemaName;
  status?: 200 | 201;
  query?: AdminQueryName | 'accountId';
  csv?: boolean;
};

/** Every admin endpoint, as `createAdminRouter` mounts it, relative to where the admin router is mounted. */
const OPERATIONS: Record<string, Record<string, AdminOperation>> = {
  '/me': { get: { operationId: 'adminMe', summary: 'Who the console token is', tag: 'Admin', answer: 'AdminMe' } },
  '/routes': { get: { operationId: 'adminListRoutes', summary: 'The routes the caller may use', tag: 'Admin', answer: 'AdminRouteList' } },
  '/accounts': {
    get: { operationId: 'adminListAccounts', summary: 'List accounts', tag: 'Admin accounts', answer: 'AdminAccountList' },
    post: { operationId: 'adminCreateAccount', summary: 'Create an account (admin token)', tag: 'Admin accounts', body: 'AdminCreateAccount', answer: 'AdminAccount', status: 201 },
  },
  '/accounts/{id}': {
    get: { operationId: 'adminGetAccount', summary: 'Read an account', tag: 'Admin accounts', answer: 'AdminAccount' },
    patch: { operationId: 'adminUpdateAccount', summary: 'Change an account (admin token)', tag: 'Admin accounts', body: 'AdminUpdateAccount', answer: 'AdminAccount' },
  },
  '/accounts/{id}/balance': {
    post: { operationId: 'adminAdjustBalance', summary: 'Top up or adjust a balance (admin token)', tag: 'Admin accounts', body: 'AdminAdjustBalance', answer: 'AdminAccount' },
  },
  '/accounts/{id}/balance-events': {
    get: { operationId: 'adminListBalanceEvents', summary: 'An account\'s balance events, newest first', tag: 'Admin usage', answer: 'AdminBalanceEventPage', query: 'balanceEvents' },
  },
  '/keys': {
    get: { operationId: 'adminListKeys', summary: 'List API keys', tag: 'Admin keys', answer: 'AdminKeyList', query: 'accountId' },
    post: { operationId: 'adminCreateKey', summary: 'Create an API key (its secret is in this answer only)', tag: 'Admin keys', body: 'AdminCreateKey', answer: 'AdminCreatedKey', status: 201 },
  },
  '/keys/{id}': {
    patch: { operationId: 'adminUpdateKey', summary: 'Change, disable or expire an API key', tag: 'Admin keys', body: 'AdminUpdateKey', answer: 'AdminKey' },
  },
  '/console-tokens': {
    get: { operationId: 'adminListConsoleTokens', summary: 'List account console tokens (admin token)', tag: 'Admin keys', answer: 'AdminConsoleTokenList', query: 'accountId' },
    post: { operationId: 'adminCreateConsoleToken', summary: 'Create an account console token (admin token)', tag: 'Admin keys', body: 'AdminCreateConsoleToken', answer: 'AdminCreatedConsoleToken', status: 201 },
  },
  '/console-tokens/{id}': {
    patch: { operationId: 'adminUpdateConsoleToken', summary: 'Disable or enable a console token (admin token)', tag: 'Admin keys', body: 'AdminUpdateConsoleToken', answer: 'AdminConsoleToken' },
  },
  '/usage': {
    get: { operationId: 'adminListUsage', summary: 'The usage ledger, newest first (or a CSV export)', tag: 'Admin usage', answer: 'AdminUsagePage', query: 'usage', csv: true },
  },
  '/usage/summary': {
    get: { operationId: 'adminSummarizeUsage', summary: 'Requests, tokens, cost, errors and latency per time bucket', tag: 'Admin usage', answer: 'AdminUsageSummary', query: 'usageSummary' },
  },
};

/**
 * The admin API's paths (under `basePath`, where the host mounts `createAdminRouter`), its schemas
 * and the console token scheme, for the OpenAPI document. Operations carry no error answers yet:
 * the document adds them in the envelope of the gateway's Bearer interface, as the router renders them.
 */
export function describeAdminOpenAPI(basePath: string): { paths: Record<string, JSONObject>; schemas: Record<string, JSONObject>; securitySchemes: Record<string, JSONObject> } {
  const { schemas, queries } = describeAdminOpenAPISchemas();
  const paths: Record<string, JSONObject> = {};
  for (const [path, operations] of Object.entries(OPERATIONS)) {
    const item: JSONObject = {};
    for (const [method, definition] of Object.entries(operations)) item[method] = operationOf(path, definition, queries);
    paths[`${basePath}${path}`] = item;
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

function operationOf(path: string, definition: AdminOperation, queries: ReturnType<typeof describeAdminOpenAPISchemas>['queries']): JSONObject {
  const parameters: JSONObject[] = path.includes('{id}') ? [ID_PARAMETER] : [];
  if (definition.query === 'accountId') parameters.push({ name: 'accountId', in: 'query', required: false, schema: { type: 'string' } });
  else if (definition.query) {
    for (const [name, schema] of Object.entries(queries[definition.query])) parameters.push({ name, in: 'query', required: false, schema });
  }
  if (definition.csv) parameters.push({ name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['json', 'csv'], default: 'json' } });
  const content: JSONObject = { 'application/json': { schema: reference(definition.answer) } };
  if (definition.csv) content['text/csv'] = { schema: { type: 'string', description: 'With `format=csv`: every matching row, a header row first (RFC 4180).' } };
  return {
    operationId: definition.operationId,
    summary: definition.summary,
    tags: [definition.tag],
    security: SECURITY,
    ...(parameters.length > 0 && { parameters }),
    ...(definition.body && { requestBody: { required: true, content: { 'application/json': { schema: reference(definition.body) } } } }),
    responses: { [String(definition.status ?? 200)]: { description: definition.status === 201 ? 'Created.' : 'OK.', content } },
  };
}
