/** The API's answer schemas, shared with the server (DESIGN: the client parses answers with the same schemas). */
export { LayoutResponseSchema, type LayoutResponse, type LayoutRow } from '../../../shared/schemas/layout.js';
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
