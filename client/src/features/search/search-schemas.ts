import { RecentActivityItemSchema } from '../../../../shared/schemas/activity.js';
import { z } from '../../../../shared/schemas/zod.js';

/** The search box's answer schemas: loaded with its first fetch (`AnswerSchema`), never with the page. */

export { SuggestResponseSchema } from '../../../../shared/schemas/suggest.js';

export const RecentActivitiesSchema = z.object({ data: z.array(RecentActivityItemSchema) });

export const TrendingPerformerSchema = z.object({
  id: z.number(),
  name: z.string(),
  eventCount: z.string(),
  pathPicture: z.string(),
  minPrice: z.number(),
  url: z.string(),
});
export type TrendingPerformer = z.infer<typeof TrendingPerformerSchema>;
export const TrendingSchema = z.object({ performers: z.array(TrendingPerformerSchema) });
