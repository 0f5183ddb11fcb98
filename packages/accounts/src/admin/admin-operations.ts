import { invalidParameter } from '@signalbox/core';
import { CONFIG_OPERATIONS } from '../config/config-operations';
import { id, json } from './admin-answer';
import type { AdminQueryName, AdminSchemaName } from './admin-openapi-schemas';
import type { ConsoleIdentity } from './console-identity';
import type { AdminService } from './create-admin-service';

/** What an admin operation reads of an HTTP request, whatever the framework. */
export type AdminOperationRequest = {
  /** The path's parameters: `id` on the paths with `:id`. */
  params: Readonly<Record<string, string>>;
  /** The query string, parsed (a repeated name is an array). */
  query: Readonly<Record<string, unknown>>;
  /** The parsed JSON body of an operation that reads one. */
  body: unknown;
};

/** A JSON answer with the operation's status, or a CSV file to stream as an attachment. */
export type AdminAnswer = { json: unknown } | { csv: AsyncIterable<string>; filename: string };

/** How the OpenAPI document describes an operation. */
export type AdminOperationDescription = {
  operationId: string;
  summary: string;
  tag: 'Admin' | 'Admin accounts' | 'Admin keys' | 'Admin usage' | 'Admin upstreams' | 'Admin config' | 'Admin audit';
  /** The JSON answer's schema, or `text/csv` for an operation that only exports CSV. */
  answer: AdminSchemaName | 'text/csv';
  /** Its query parameters: one of the usage or config queries, or the `accountId` of a listing. */
  query?: AdminQueryName | 'accountId';
  /** Answers CSV instead of JSON with `format=csv`. */
  csvFormat?: boolean;
};

/** One admin API operation: where it is, what it reads and answers, and the service call it is. */
export type AdminOperation = {
  method: 'get' | 'post' | 'patch';
  /** Relative to where the admin API is mounted, with `:id` for the path parameter. */
  path: string;
  /** The status of its JSON answer. */
  status: 200 | 201;
  /** The schema of the JSON body it reads; absent when it reads none. */
  body?: AdminSchemaName;
  run(admin: AdminService, identity: ConsoleIdentity, request: AdminOperationRequest): Promise<AdminAnswer>;
  describe: AdminOperationDescription;
};

const csvFile = async (chunks: Promise<AsyncIterable<string>>, filename = 'usage.csv'): Promise<AdminAnswer> => ({ csv: await chunks, filename });

/**
 * Every operation of the admin API, once: the admin router (Bearer console token) and the panel
 * (cookie session) both mount this table, so they differ only in how they find the caller's
 * identity and check changes, and the OpenAPI document describes the same list.
 */
export const ADMIN_OPERATIONS: readonly AdminOperation[] = [
  {
    method: 'get', path: '/me', status: 200,
    run: (admin, identity) => json(admin.me(identity)),
    describe: { operationId: 'adminMe', summary: 'Who the console token is', tag: 'Admin', answer: 'AdminMe' },
  },
  {
    method: 'get', path: '/routes', status: 200,
    run: (admin, identity) => json(admin.listRoutes(identity)),
    describe: { operationId: 'adminListRoutes', summary: 'The routes the caller may use', tag: 'Admin', answer: 'AdminRouteList' },
  },
  {
    method: 'get', path: '/accounts', status: 200,
    run: (admin, identity) => json(admin.listAccounts(identity)),
    describe: { operationId: 'adminListAccounts', summary: 'List accounts', tag: 'Admin accounts', answer: 'AdminAccountList' },
  },
  {
    method: 'post', path: '/accounts', status: 201, body: 'AdminCreateAccount',
    run: (admin, identity, request) => json(admin.createAccount(identity, request.body)),
    describe: { operationId: 'adminCreateAccount', summary: 'Create an account (admin token)', tag: 'Admin accounts', answer: 'AdminAccount' },
  },
  {
    method: 'get', path: '/accounts/:id', status: 200,
    run: (admin, identity, request) => json(admin.getAccount(identity, id(request))),
    describe: { operationId: 'adminGetAccount', summary: 'Read an account', tag: 'Admin accounts', answer: 'AdminAccount' },
  },
  {
    method: 'patch', path: '/accounts/:id', status: 200, body: 'AdminUpdateAccount',
    run: (admin, identity, request) => json(admin.updateAccount(identity, id(request), request.body)),
    describe: { operationId: 'adminUpdateAccount', summary: 'Change an account (admin token)', tag: 'Admin accounts', answer: 'AdminAccount' },
  },
  {
    method: 'post', path: '/accounts/:id/balance', status: 200, body: 'AdminAdjustBalance',
    run: (admin, identity, request) => json(admin.adjustBalance(identity, id(request), request.body)),
    describe: { operationId: 'adminAdjustBalance', summary: 'Top up or adjust a balance (admin token)', tag: 'Admin accounts', answer: 'AdminAccount' },
  },
  {
    method: 'get', path: '/accounts/:id/balance-events', status: 200,
    run: (admin, identity, request) => json(admin.listBalanceEvents(identity, id(request), request.query)),
    describe: { operationId: 'adminListBalanceEvents', summary: "An account's balance events, newest first", tag: 'Admin usage', answer: 'AdminBalanceEventPage', query: 'balanceEvents' },
  },
  {
    method: 'get', path: '/keys', status: 200,
    run: (admin, identity, request) => json(admin.listKeys(identity, accountIdQuery(request))),
    describe: { operationId: 'adminListKeys', summary: 'List API keys', tag: 'Admin keys', answer: 'AdminKeyList', query: 'accountId' },
  },
  {
    method: 'post', path: '/keys', status: 201, body: 'AdminCreateKey',
    run: (admin, identity, request) => json(admin.createKey(identity, request.body)),
    describe: { operationId: 'adminCreateKey', summary: 'Create an API key (its secret is in this answer only)', tag: 'Admin keys', answer: 'AdminCreatedKey' },
  },
  {
    method: 'patch', path: '/keys/:id', status: 200, body: 'AdminUpdateKey',
    run: (admin, identity, request) => json(admin.updateKey(identity, id(request), request.body)),
    describe: { operationId: 'adminUpdateKey', summary: 'Change, disable or expire an API key', tag: 'Admin keys', answer: 'AdminKey' },
  },
  {
    method: 'get', path: '/budgets', status: 200,
    run: (admin, identity, request) => json(admin.listBudgets(identity, accountIdQuery(request))),
    describe: { operationId: 'adminListBudgets', summary: 'Budgets of accounts and keys, with the current period\'s charges', tag: 'Admin accounts', answer: 'AdminBudgetList', query: 'accountId' },
  },
  {
    method: 'post', path: '/budgets', status: 200, body: 'AdminSetBudget',
    run: (admin, identity, request) => json(admin.setBudget(identity, request.body)),
    describe: { operationId: 'adminSetBudget', summary: 'Set, change or remove a budget (an account\'s own: admin token)', tag: 'Admin accounts', answer: 'AdminBudgetList' },
  },
  {
    method: 'get', path: '/alerts', status: 200,
    run: (admin, identity) => json(admin.listAlerts(identity)),
    describe: { operationId: 'adminListAlerts', summary: 'Active alerts and the latest webhook deliveries (admin token)', tag: 'Admin upstreams', answer: 'AdminAlerts' },
  },
  {
    method: 'get', path: '/console-tokens', status: 200,
    run: (admin, identity, request) => json(admin.listConsoleTokens(identity, accountIdQuery(request))),
    describe: { operationId: 'adminListConsoleTokens', summary: 'List account console tokens (admin token)', tag: 'Admin keys', answer: 'AdminConsoleTokenList', query: 'accountId' },
  },
  {
    method: 'post', path: '/console-tokens', status: 201, body: 'AdminCreateConsoleToken',
    run: (admin, identity, request) => json(admin.createConsoleToken(identity, request.body)),
    describe: { operationId: 'adminCreateConsoleToken', summary: 'Create an account console token (admin token)', tag: 'Admin keys', answer: 'AdminCreatedConsoleToken' },
  },
  {
    method: 'patch', path: '/console-tokens/:id', status: 200, body: 'AdminUpdateConsoleToken',
    run: (admin, identity, request) => json(admin.updateConsoleToken(identity, id(request), request.body)),
    describe: { operationId: 'adminUpdateConsoleToken', summary: 'Disable or enable a console token (admin token)', tag: 'Admin keys', answer: 'AdminConsoleToken' },
  },
  {
    method: 'get', path: '/usage', status: 200,
    run: (admin, identity, request) => {
      const { format, ...query } = request.query;
      if (format === undefined || format === 'json') return json(admin.listUsage(identity, query));
      if (format !== 'csv') throw invalidParameter('format', 'must be json or csv');
      return csvFile(admin.exportUsageCsv(identity, query));
    },
    describe: { operationId: 'adminListUsage', summary: 'The usage ledger, newest first (or a CSV export)', tag: 'Admin usage', answer: 'AdminUsagePage', query: 'usage', csvFormat: true },
  },
  {
    method: 'get', path: '/upstreams', status: 200,
    run: (admin, identity) => json(admin.listUpstreams(identity)),
    describe: { operationId: 'adminListUpstreams', summary: 'Each upstream and credential with its health (admin token)', tag: 'Admin upstreams', answer: 'AdminUpstreamList' },
  },
  {
    method: 'post', path: '/upstreams/:id/enable', status: 200, body: 'AdminEnableCredential',
    run: (admin, identity, request) => json(admin.enableCredential(identity, id(request), request.body)),
    describe: { operationId: 'adminEnableCredential', summary: 'Put an upstream credential back in service (admin token)', tag: 'Admin upstreams', answer: 'AdminUpstreamCredential' },
  },
  {
    method: 'get', path: '/usage.csv', status: 200,
    run: (admin, identity, request) => csvFile(admin.exportUsageCsv(identity, request.query)),
    describe: { operationId: 'adminExportUsage', summary: 'The usage ledger as a CSV file', tag: 'Admin usage', answer: 'text/csv', query: 'usage' },
  },
  {
    method: 'get', path: '/usage/summary', status: 200,
    run: (admin, identity, request) => json(admin.summarizeUsage(identity, request.query)),
    describe: { operationId: 'adminSummarizeUsage', summary: 'Requests, tokens, cost, errors and latency per time bucket', tag: 'Admin usage', answer: 'AdminUsageSummary', query: 'usageSummary' },
  },
  {
    method: 'get', path: '/audit', status: 200,
    run: (admin, identity, request) => {
      const { format, ...query } = request.query;
      if (format === undefined || format === 'json') return json(admin.listAudit(identity, query));
      if (format !== 'csv') throw invalidParameter('format', 'must be json or csv');
      return csvFile(admin.exportAuditCsv(identity, query), 'audit.csv');
    },
    describe: { operationId: 'adminListAudit', summary: 'The audit log of changes, newest first (or a CSV export)', tag: 'Admin audit', answer: 'AdminAuditPage', query: 'audit', csvFormat: true },
  },
  {
    method: 'get', path: '/audit.csv', status: 200,
    run: (admin, identity, request) => csvFile(admin.exportAuditCsv(identity, request.query), 'audit.csv'),
    describe: { operationId: 'adminExportAudit', summary: 'The audit log as a CSV file', tag: 'Admin audit', answer: 'text/csv', query: 'audit' },
  },
  ...CONFIG_OPERATIONS,
];

/** A listing's `accountId` filter: absent or empty means every account the caller may see; repeated is a 400. */
function accountIdQuery(request: AdminOperationRequest): string | undefined {
  const value = request.query.accountId;
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalidParameter('accountId', 'must be given once');
  return value;
}
