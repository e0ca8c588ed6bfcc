import { z } from './zod.js';
import { MAX_QUERY_LENGTH } from '../rules/constants.js';

export const SuggestQuerySchema = z.object({
  q: z.string().max(MAX_QUERY_LENGTH, `q must be at most ${MAX_QUERY_LENGTH} characters`).default(''),
  /** Also suggest cities and events (RULES 7.11, "extra sources"). */
  extra: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
});

/** RULES 5.10, suggester result: a text and a data id, plus where picking it leads. */
export const SuggestionSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  url: z.string(),
  subtitle: z.string().optional(),
  pathPicture: z.string().optional(),
});
export type Suggestion = z.infer<typeof SuggestionSchema>;

export const SuggestResponseSchema = z.object({
  query: z.string(),
  performers: z.array(SuggestionSchema),
  venues: z.array(SuggestionSchema),
  cities: z.array(SuggestionSchema).optional(),
  events: z.array(SuggestionSchema).optional(),
});
export type SuggestResponse = z.infer<typeof SuggestResponseSchema>;
