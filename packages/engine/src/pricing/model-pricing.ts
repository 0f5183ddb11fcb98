import { z } from 'zod';

/**
 * Prices in currency units per million tokens. Cache reads, 5-minute and 1-hour cache writes each
 * have their own price; an absent one is the input price.
 */
export const modelPricingSchema = z
  .object({
    inputPerMillion: z.number().nonnegative(),
    outputPerMillion: z.number().nonnegative(),
    cachedInputPerMillion: z.number().nonnegative().optional(),
    cacheWritePerMillion: z.number().nonnegative().optional(),
    cacheWrite1hPerMillion: z.number().nonnegative().optional(),
  })
  .strict();

/** A model's (or a route's) prices per million tokens. */
export type ModelPricing = z.output<typeof modelPricingSchema>;

/**
 * Each part of a price a request is charged by, with how to read it: an absent cache price is the
 * input price. Holds, charges and checks compare prices part by part through this one list.
 */
export const PRICE_PARTS = [
  ['inputPerMillion', (price: ModelPricing) => price.inputPerMillion],
  ['outputPerMillion', (price: ModelPricing) => price.outputPerMillion],
  ['cachedInputPerMillion', (price: ModelPricing) => price.cachedInputPerMillion ?? price.inputPerMillion],
  ['cacheWritePerMillion', (price: ModelPricing) => price.cacheWritePerMillion ?? price.inputPerMillion],
  ['cacheWrite1hPerMillion', (price: ModelPricing) => price.cacheWrite1hPerMillion ?? price.inputPerMillion],
] as const;
