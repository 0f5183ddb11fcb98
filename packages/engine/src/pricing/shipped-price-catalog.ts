import shipped from './price-catalog.json';
import { priceCatalogSchema, type PriceCatalog } from './price-catalog';

/**
 * The catalog this release ships (`price-catalog.json`): only prices read on each vendor's own
 * page, on the date it gives. A route's `pricing: "catalog"` uses it unless the host passes another.
 */
export const SHIPPED_PRICE_CATALOG: PriceCatalog = priceCatalogSchema.parse(shipped);
