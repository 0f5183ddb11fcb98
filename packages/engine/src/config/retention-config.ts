import { DEFAULT_ALERT_DELIVERY_RETENTION_DAYS, DEFAULT_USAGE_RETENTION_DAYS } from '@signalbox/accounts';
import { z } from 'zod';

/** The usage ledger: how long its rows are kept. */
export const usageConfigSchema = z
  .object({
    /**
     * Days a ledger row is kept; older rows are deleted by the account store's sweep (the host
     * passes this to the store it opens). Default 400: a year plus a month of slack for yearly reports.
     */
    retentionDays: z.number().int().positive().default(DEFAULT_USAGE_RETENTION_DAYS),
  })
  .strict();

export type UsageConfig = z.output<typeof usageConfigSchema>;

/** How long the audit log keeps an entry; older ones are deleted by the account store's sweep (the host passes this to the store it opens). */
export const auditConfigSchema = z.object({ retentionDays: z.number().int().positive().default(DEFAULT_USAGE_RETENTION_DAYS) }).strict();

/** How long the record of each alert delivery attempt is kept; older ones are deleted by the account store's sweep. */
export const alertDeliveriesConfigSchema = z.object({ retentionDays: z.number().int().positive().default(DEFAULT_ALERT_DELIVERY_RETENTION_DAYS) }).strict();
