/** Every figure of the specification, named once (each group names its rules in docs/RULES.md). */

export const SITE_ID = 22791;

// Search (RULES 6.2, 7.10–7.15, 13.1, 13.2)
export const SEARCH_CACHE_TTL_SECONDS = 43_200;
export const EDGE_CACHE_SECONDS = 3_600;
export const PERFORMER_SEARCH_PER_PAGE = 10;
export const SUGGEST_PERFORMERS = 6;
export const SUGGEST_PERFORMERS_WITH_EXTRA = 5;
export const SUGGEST_VENUES = 6;
export const SUGGEST_VENUES_WITH_EXTRA = 3;
export const SUGGEST_CITIES = 3;
/** City name against state name when suggesting cities. */
export const SUGGEST_CITY_WEIGHTS = [5, 1] as const;
export const SUGGEST_EVENTS = 3;
export const TRENDING_MIN_EVENTS_EXCLUSIVE = 5;
export const TRENDING_MAX_EVENTS_EXCLUSIVE = 100;
export const TRENDING_POOL = 200;
export const TRENDING_SHOWN = 9;
export const POPULAR_PERFORMERS_MAX = 3;
export const POPULAR_PERFORMERS_MIN_SHARE = 0.1;
export const ZIP_DETERMINATION_MIN_GTV = 25_000;
export const ZIP_DETERMINATION_HITS = 100;
export const TSIMAGE_PER_PAGE = 10;
export const VENUE_ROW_MIN_EVENTS_EXCLUSIVE = 0;
/** RULES 8.3: the longest search a shopper may send, in characters. */
export const MAX_QUERY_LENGTH = 200;

// Text matching: Typesense's documented defaults, which both engines follow (the embedded one reproduces them,
// the Typesense adapter pins them rather than leave them to the server).
/** A word is allowed 1 typo from this many characters… */
export const TYPO_MIN_LENGTH_1 = 4;
/** …and 2 typos from this many. */
export const TYPO_MIN_LENGTH_2 = 7;
/** `max_candidates`: the last word, a prefix, stands for at most this many completions. */
export const MAX_PREFIX_CANDIDATES = 4;

// Geo radii (RULES 6.5)
export const LOCAL_RADIUS_MILES = 50;
export const CATEGORY_RADIUS_MILES = 200;

// Event badges (RULES 5.1)
export const HOT_EVENT_MIN_ORDERS_D1_EXCLUSIVE = 0;
export const HOT_EVENT_MIN_CARTS_D1 = 5;
export const PEOPLE_VIEWING_MIN = 10;
export const TICKETS_LEFT_MIN_EXCLUSIVE = 1;
export const TICKETS_LEFT_MAX_EXCLUSIVE = 100;

// Event lists and cards (RULES 4.2, 5.2)
export const MAX_YEARS_AHEAD = 10;
/** A start at this venue-local time means the time is not known yet (RULES 4.2). */
export const TBD_LOCAL_TIME = '03:30';

// Date filters (RULES 4.4)
export const DATE_FILTER_NAMES = [
  'all',
  'this_week',
  'this_month',
  'this_quarter',
  'next_7_days',
  'next_30_days',
  'next_60_days',
] as const;
export const ALL_DATES_YEARS = 100;
export const THIS_QUARTER_DAYS = 120;
export const NEXT_7_DAYS_SPAN = 8;
export const NEXT_30_DAYS_SPAN = 30;
export const NEXT_60_DAYS_SPAN = 60;

// Location resolution (RULES 6.1)
export const DIRECT_MARKET_STATES = ['HI', 'AK', 'DE', 'RI'] as const;
export const ZIP3_PREFIX_LENGTH = 3;
export const ZIP2_PREFIX_LENGTH = 2;
export const NATIONAL_MARKET = 'national';

// Commerce (RULES 3.4, 9.8, 9.9, 10.4)
export const FF20_PROMO_CODE = 'FF20';
export const FF20_DISCOUNT_FACTOR = 0.8;
export const PURCHASE_VALUE_MULTIPLIER = 95;
export const PAYMENT_FAILED_SUFFIX = '_failed';
export const APPLE_PAY_VERSION = 3;

// Fair share (RULES 8.1): tickets of one event one guest may hold or buy, and guests counted per client address.
export const MAX_TICKETS_PER_EVENT = 8;
export const GUESTS_PER_ADDRESS = 4;

// Search input (RULES 7.7)
export const SUBMIT_KEYCODE = 13;

// Log wording of the error catalogue (RULES 14.9–14.11)
export const ZIP_DETERMINATION_FAILURE_MESSAGE = 'Zip-determination failure';
export const CATEGORY_IMAGE_NOT_FOUND_MESSAGE = 'not found';
export const PRICE_FORMAT_FAILURE_MESSAGE = 'something went wrong formatting price in checkout';
