/**
 * The schemas the buying calls parse their answers with (`buying-api.ts`). They load with the first such call, beside
 * it: an event page the server rendered carries its answers, so its script holds neither zod nor the schemas.
 */
export {
  CartSchema,
  ListingDetailSchema,
  ListingsResponseSchema,
  OrderSchema,
} from '../../../../shared/schemas/commerce.js';
export { EventPageSchema } from '../../../../shared/schemas/entities.js';
export { PurchaseAllowanceSchema } from '../../../../shared/schemas/purchase-limits.js';
