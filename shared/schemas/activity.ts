import { z } from './zod.js';

/**
 * One performer or event a guest opened (RULES 7.9's recent activity), as the API answers it and the guest's data
 * download carries it (RULES 21.1).
 */
export const RecentActivityItemSchema = z.object({
  type: z.enum(['performer', 'event']),
  id: z.number().int().positive(),
  name: z.string(),
  url: z.string(),
  image: z.string().nullable(),
  viewedAt: z.string(),
});
export type RecentActivityItem = z.infer<typeof RecentActivityItemSchema>;
