import { z } from 'zod';
import { modelPricingSchema, type ModelPricing } from './model-pricing';

const calendarDate = z.iso.date();

/** One vendor's prices, with the page they were read from and when. */
const vendorPricesSchema = z
  .object({
    source: z.url({ protocol: /^https?$/ }),
    asOf: calendarDate,
    models: z.record(z.string().min(1).max(200), modelPricingSchema),
  })
  .strict();

/**
 * A price catalog: prices per million tokens for well-known model IDs, by vendor, each vendor with
 * its source page and the date it was read. A model ID appears under one vendor only.
 */
export const priceCatalogSchema = z
  .object({
    /** When the catalog as a whole was assembled: the date a missing model's error names. */
    asOf: calendarDate,
    /** The currency of every price (routes' prices are in the same units). */
    currency: z.string().min(1).max(10),
    vendors: z.record(z.string().min(1), vendorPricesSchema),
  })
  .strict()
  .superRefine((catalog, context) => {
    const seen = new Map<string, string>();
    for (const [vendor, prices] of Object.entries(catalog.vendors)) {
      for (const model of Object.keys(prices.models)) {
        const other = seen.get(model);
        if (other !== undefined) context.addIssue({ code: 'custom', path: ['vendors', vendor, 'models', model], message: `also listed under '${other}'` });
        seen.set(model, vendor);
      }
    }
  });

export type PriceCatalog = z.output<typeof priceCatalogSchema>;

/** The prices of `model` in `catalog`, or `undefined` when it does not list it. */
export function findCatalogPrice(catalog: PriceCatalog, model: string): ModelPricing | undefined {
  for (const prices of Object.values(catalog.vendors)) {
    if (Object.hasOwn(prices.models, model)) return prices.models[model];
  }
  return undefined;
}

/**
 * Validates a price catalog read from a file (an operator's refresh). Returns the catalog, or
 * every problem as `path: message`.
 */
export function parsePriceCatalog(value: unknown): { catalog: PriceCatalog } | { problems: string[] } {
  const result = priceCatalogSchema.safeParse(value);
  if (result.success) return { catalog: result.data };
  return { problems: result.error.issues.map(issue => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`) };
}
