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

/**
 * `POST /api/CustomerActivity/recent-activities` (RULES 1.8, 13.7): a performer or event page the browser showed
 * without asking the API for it (a rendered or shared-cache page), for the guest's recent activity. The slug is
 * the page's, as its address spells it.
 */
export const ViewedPageBodySchema = z.object({
  type: z.enum(['performer', 'event']),
  slug: z.string().min(1).max(300),
});
export type ViewedPageBody = z.infer<typeof ViewedPageBodySchema>;
