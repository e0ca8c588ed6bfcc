import { z } from '../../../shared/schemas/zod.js';
import { LayoutResponseSchema, LayoutRowSchema } from '../../../shared/schemas/layout.js';

/**
 * The API's answer schemas, shared with the server (DESIGN: the client parses answers with the same schemas). What
 * the first screen fetches loads this module with its first fetch (`AnswerSchema` in `./api.ts`), never with the
 * page: zod and the schemas stay off the home route's script.
 */
export {
  BrandAnswerSchema,
  LayoutResponseSchema,
  type LayoutResponse,
  type LayoutRow,
} from '../../../shared/schemas/layout.js';
export { SuggestResponseSchema, type SuggestResponse, type Suggestion } from '../../../shared/schemas/suggest.js';
export {
  EventPageSchema,
  MenuSchema,
  PerformerPageSchema,
  SearchResultsSchema,
  VenuePageSchema,
  type Menu,
  type SearchResults,
} from '../../../shared/schemas/entities.js';
export {
  PerformerCardSchema,
  type EventCard,
  type PerformerCard,
  type VenueCard,
} from '../../../shared/schemas/cards.js';

/**
 * A layout answer as the layout page keeps it: the envelope parsed, and each row on its own. A row that fails (a
 * type this client does not know, a broken card) is kept as its `type` alone, which the row list skips and reports
 * (RULES 11.11): one row cannot sink the page.
 */
export const LayoutAnswerSchema = LayoutResponseSchema.extend({
  rows: z.array(z.unknown()).transform((rows) =>
    rows.map((row): unknown => {
      const parsed = LayoutRowSchema.safeParse(row);
      return parsed.success ? parsed.data : { type: (row as { type?: unknown } | null)?.type };
    }),
  ),
});
