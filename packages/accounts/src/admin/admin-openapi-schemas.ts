import type { JSONObject } from '@signalbox/core';
import { z } from 'zod';
import {
  adjustBalanceSchema,
  createAccountSchema,
  createConsoleTokenSchema,
  createKeySchema,
  enableCredentialSchema,
  setBudgetSchema,
  updateAccountSchema,
  updateConsoleTokenSchema,
  updateKeySchema,
} from './admin-schemas';
import {
  adminAccountSchema,
  adminAlertsSchema,
  adminAuditEntrySchema,
  adminBalanceEventSchema,
  adminBudgetSchema,
  adminConsoleTokenSchema,
  adminCreatedConsoleTokenSchema,
  adminCreatedKeySchema,
  adminKeySchema,
  adminListOf,
  adminMeSchema,
  adminPageOf,
  adminRouteSchema,
  adminUpstreamCredentialSchema,
  adminUpstreamSchema,
  adminUsageEntrySchema,
  adminUsageSummarySchema,
} from './admin-response-schemas';
import {
  adminConfigDiffSchema,
  adminConfigSchema,
  adminConfigVersionSchema,
  adminConfigVersionSummarySchema,
  changeConfigSchema,
  configDiffQuerySchema,
  configVersionsQuerySchema,
} from '../config/config-schemas';
import { auditPageQuerySchema, balanceEventsQuerySchema, usagePageQuerySchema, usageSummaryQuerySchema } from './usage-query-schemas';

/** The admin API's bodies and answers, by the component name the OpenAPI document gives each. */
const BODIES = {
  AdminCreateAccount: createAccountSchema,
  AdminUpdateAccount: updateAccountSchema,
  AdminAdjustBalance: adjustBalanceSchema,
  AdminCreateKey: createKeySchema,
  AdminUpdateKey: updateKeySchema,
  AdminCreateConsoleToken: createConsoleTokenSchema,
  AdminUpdateConsoleToken: updateConsoleTokenSchema,
  AdminEnableCredential: enableCredentialSchema,
  AdminSetBudget: setBudgetSchema,
  AdminChangeConfig: changeConfigSchema,
} as const;

const ANSWERS = {
  AdminMe: adminMeSchema,
  AdminRouteList: adminListOf(adminRouteSchema),
  AdminAccount: adminAccountSchema,
  AdminAccountList: adminListOf(adminAccountSchema),
  AdminKey: adminKeySchema,
  AdminKeyList: adminListOf(adminKeySchema),
  AdminCreatedKey: adminCreatedKeySchema,
  AdminConsoleToken: adminConsoleTokenSchema,
  AdminConsoleTokenList: adminListOf(adminConsoleTokenSchema),
  AdminCreatedConsoleToken: adminCreatedConsoleTokenSchema,
  AdminUsagePage: adminPageOf(adminUsageEntrySchema),
  AdminUsageSummary: adminUsageSummarySchema,
  AdminBalanceEventPage: adminPageOf(adminBalanceEventSchema),
  AdminUpstreamList: adminListOf(adminUpstreamSchema),
  AdminBudgetList: adminListOf(adminBudgetSchema),
  AdminAlerts: adminAlertsSchema,
  AdminUpstreamCredential: adminUpstreamCredentialSchema,
  AdminConfig: adminConfigSchema,
  AdminConfigVersion: adminConfigVersionSchema,
  AdminConfigVersionPage: adminPageOf(adminConfigVersionSummarySchema),
  AdminConfigDiff: adminConfigDiffSchema,
  AdminAuditPage: adminPageOf(adminAuditEntrySchema),
} as const;

/** The query strings of the admin API's paged and filtered reads. */
const QUERIES = {
  usage: usagePageQuerySchema,
  usageSummary: usageSummaryQuerySchema,
  balanceEvents: balanceEventsQuerySchema,
  configVersions: configVersionsQuerySchema,
  configDiff: configDiffQuerySchema,
  audit: auditPageQuerySchema,
} as const;

export type AdminSchemaName = keyof typeof BODIES | keyof typeof ANSWERS;
export type AdminQueryName = keyof typeof QUERIES;

/**
 * The admin API's schemas as JSON Schema 2020-12 (the dialect of OpenAPI 3.1), from the same zod
 * schemas that validate its bodies and queries: bodies as a caller may send them, answers as the
 * admin service writes them, and each query's parameters (name → schema) for the OpenAPI document.
 */
export function describeAdminOpenAPISchemas(): {
  schemas: Record<AdminSchemaName, JSONObject>;
  queries: Record<AdminQueryName, Record<string, JSONObject>>;
} {
  const schemas = {} as Record<AdminSchemaName, JSONObject>;
  for (const [name, schema] of Object.entries(BODIES)) schemas[name as AdminSchemaName] = toJSONSchema(schema, 'input');
  for (const [name, schema] of Object.entries(ANSWERS)) schemas[name as AdminSchemaName] = toJSONSchema(schema, 'output');
  const queries = {} as Record<AdminQueryName, Record<string, JSONObject>>;
  for (const [name, schema] of Object.entries(QUERIES)) {
    queries[name as AdminQueryName] = (toJSONSchema(schema, 'input').properties ?? {}) as Record<string, JSONObject>;
  }
  return { schemas, queries };
}

function toJSONSchema(schema: z.ZodType, io: 'input' | 'output'): JSONObject {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' });
  return jsonSchema as JSONObject;
}
