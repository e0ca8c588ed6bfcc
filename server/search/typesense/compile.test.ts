import { describe, expect, it } from 'vitest';
import { SearchRequestSchema, type ParsedSearchRequest, type SearchRequest } from '../../../shared/schemas/search.js';
import { AppError } from '../../http/errors.js';
import {
  compileSearch,
  fieldWeights,
  quoteString,
  renderNumber,
  SearchCompileError,
  TEXT_MATCH_SETTINGS,
} from './compile.js';

const parse = (request: SearchRequest): ParsedSearchRequest => SearchRequestSchema.parse(request);
const compile = (request: SearchRequest) => compileSearch(parse(request));
const filterBy = (request: SearchRequest) => compile(request).filter_by;
/** Builds a request the schema would refuse, to prove the compiler re-checks what it is given. */
const raw = (overrides: Partial<ParsedSearchRequest>): ParsedSearchRequest => ({
  ...parse({ collection: 'Event' }),
  ...overrides,
});

/**
 * How Typesense splits `filter_by` into clauses and operators: a port of `StringUtils::tokenize_filter_query`
 * (backticks quote; `(`, `)`, `&&`, `||` split outside them; `:` then `(` opens a geo value until `)`).
 */
function typesenseTokens(filter: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < filter.length) {
    const c = filter[i]!;
    if (c === ' ') {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push(c);
      i++;
    } else if (c === '&' || c === '|') {
      if (filter[i + 1] !== c) throw new Error(`Could not parse the filter query at ${i}`);
      tokens.push(c + c);
      i += 2;
    } else {
      let token = '';
      let ch: string | undefined = c;
      let inBacktick = false;
      let precedingColon = false;
      let geoValue = false;
      do {
        if (ch === ':') precedingColon = true;
        if (ch === ')' && geoValue) geoValue = false;
        token += ch;
        ch = filter[++i];
        if (ch === '`') inBacktick = !inBacktick;
        if (precedingColon && ch === '(') {
          geoValue = true;
          precedingColon = false;
        } else if (precedingColon && ch !== ' ') {
          precedingColon = false;
        }
      } while (
        i < filter.length &&
        (inBacktick ||
          geoValue ||
          (ch !== '(' &&
            ch !== ')' &&
            !(ch === '&' && filter[i + 1] === '&') &&
            !(ch === '|' && filter[i + 1] === '|')))
      );
      tokens.push(token.trim());
    }
  }
  return tokens;
}

/** A port of `StringUtils::split_to_values`, which reads the values of a `[…]` list. */
function splitToValues(list: string): string[] {
  const values: string[] = [];
  let inside = false;
  let buffer = '';
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    if (c === '`') {
      if (i !== 0 && list[i - 1] === '\\') buffer += c;
      else if (inside && buffer !== '') inside = false;
      else inside = true;
    } else if (c === ',' && !inside) {
      values.push(buffer.trim());
      buffer = '';
    } else {
      buffer += c;
    }
  }
  if (buffer !== '') values.push(buffer.trim());
  return values;
}

/** One clause as Typesense's `toFilter` reads it: field, operator and values. */
function readClause(clause: string): { field: string; op: string; values: string[] } {
  const colon = clause.indexOf(':');
  const field = clause.slice(0, colon).trim();
  let rest = clause.slice(colon + 1).trim();
  const op = rest.startsWith('!=') ? '!=' : rest.startsWith('=') ? '=' : '';
  rest = rest.slice(op.length).trimStart();
  if (rest.startsWith('[') && rest.endsWith(']')) return { field, op, values: splitToValues(rest.slice(1, -1)) };
  return { field, op, values: [rest.startsWith('`') && rest.endsWith('`') ? rest.slice(1, -1) : rest] };
}

describe('compileSearch: query', () => {
  it('sends the wildcard for a match-all query, with no text settings', () => {
    expect(compile({ collection: 'Event' })).toEqual({ q: '*', page: 1, per_page: 10 });
    expect(compile({ collection: 'Event', q: '   ', page: 3, perPage: 250 })).toEqual({
      q: '*',
      page: 3,
      per_page: 250,
    });
    expect(compile({ collection: 'Event', q: ' * ', queryBy: ['event_name'] })).toEqual({
      q: '*',
      page: 1,
      per_page: 10,
    });
  });

  it('sends a text query with its fields, descending weights and pinned typo settings', () => {
    expect(
      compile({
        collection: 'Event',
        q: '  taylor swift ',
        queryBy: ['event_name', 'performer_names', 'venue_name', 'venue_city'],
      }),
    ).toEqual({
      q: 'taylor swift',
      query_by: 'event_name,performer_names,venue_name,venue_city',
      query_by_weights: '8,4,2,1',
      prefix: true,
      num_typos: 2,
      min_len_1typo: 4,
      min_len_2typo: 7,
      max_candidates: 4,
      typo_tokens_threshold: 1,
      drop_tokens_threshold: 0,
      sort_by: '_text_match:desc',
      page: 1,
      per_page: 10,
    });
  });

  it('sends no weights for a single field', () => {
    const params = compile({ collection: 'Performer', q: 'yankees', queryBy: ['performer_name'] });
    expect(params.query_by).toBe('performer_name');
    expect(params).not.toHaveProperty('query_by_weights');
    expect(params).toMatchObject(TEXT_MATCH_SETTINGS);
  });

  it('sends the weights the request gives, even for one field', () => {
    expect(
      compile({ collection: 'Event', q: 'x', queryBy: ['event_name', 'venue_city'], queryByWeights: [1, 3] })
        .query_by_weights,
    ).toBe('1,3');
    expect(
      compile({ collection: 'Performer', q: 'x', queryBy: ['performer_name'], queryByWeights: [5] }).query_by_weights,
    ).toBe('5');
    expect(compile({ collection: 'Event', queryBy: ['event_name'], queryByWeights: [5] })).not.toHaveProperty(
      'query_by_weights',
    );
  });

  it('refuses weights that do not fit, even when the schema was bypassed', () => {
    const text = { q: 'x', queryBy: ['event_name', 'venue_city'] };
    expect(() => compileSearch(raw({ ...text, queryByWeights: [1] }))).toThrow(/one weight per queryBy field/);
    expect(() => compileSearch(raw({ ...text, queryByWeights: [1, 128] }))).toThrow(/0 to 127/);
    expect(() => compileSearch(raw({ ...text, queryByWeights: [1, 1.5] }))).toThrow(/0 to 127/);
    expect(() => compileSearch(raw({ ...text, queryByWeights: [-1, 1] }))).toThrow(/0 to 127/);
  });

  it('keeps default weights within Typesense’s 0–127', () => {
    expect(fieldWeights(2)).toEqual([2, 1]);
    expect(fieldWeights(8)).toEqual([127, 64, 32, 16, 8, 4, 2, 1]);
  });

  it('joins included fields', () => {
    expect(
      compile({ collection: 'Performer', includeFields: ['performer_name', 'venues.venue_name'] }).include_fields,
    ).toBe('performer_name,venues.venue_name');
  });

  it('refuses text fields that are not strings, and unknown fields', () => {
    expect(() => compile({ collection: 'Event', q: 'x', queryBy: ['event_id'] })).toThrow(/not a text field/);
    expect(() => compile({ collection: 'Event', q: 'x', queryBy: ['nope'] })).toThrow(/Event has no field `nope`/);
  });
});

describe('compileSearch: filters', () => {
  const one = (
    filter: NonNullable<SearchRequest['filters']>[number],
    collection: SearchRequest['collection'] = 'Event',
  ) => filterBy({ collection, filters: [filter] });

  it('renders every operator exactly', () => {
    expect(one({ op: 'eq', field: 'category', value: 'nfl' })).toBe('category:=`nfl`');
    expect(one({ op: 'eq', field: 'venue_id', value: 42 })).toBe('venue_id:=42');
    expect(one({ op: 'eq', field: 'category', value: true })).toBe('category:=true');
    expect(one({ op: 'neq', field: 'event_status', value: 'cancelled' })).toBe('event_status:!=`cancelled`');
    expect(one({ op: 'neq', field: 'venue_id', value: -7 })).toBe('venue_id:!=-7');
    expect(one({ op: 'in', field: 'category', values: ['nfl', 'mlb'] })).toBe('category:=[`nfl`,`mlb`]');
    expect(one({ op: 'in', field: 'performer_ids', values: [1, 2, 3] })).toBe('performer_ids:=[1,2,3]');
    expect(one({ op: 'nin', field: 'event_status', values: ['cancelled', 'postponed'] })).toBe(
      'event_status:!=[`cancelled`,`postponed`]',
    );
    expect(one({ op: 'nin', field: 'venue_id', values: [5] })).toBe('venue_id:!=[5]');
    expect(one({ op: 'gt', field: 'min_ticket_price', value: 49.5 })).toBe('min_ticket_price:>49.5');
    expect(one({ op: 'gte', field: 'event_timestamp', value: 1767225600 })).toBe('event_timestamp:>=1767225600');
    expect(one({ op: 'lt', field: 'venue_time_zone_offset', value: -4 })).toBe('venue_time_zone_offset:<-4');
    expect(one({ op: 'lte', field: 'tickets_available', value: 0 })).toBe('tickets_available:<=0');
    expect(one({ op: 'between', field: 'event_timestamp', min: 1767225600, max: 1767830399 })).toBe(
      'event_timestamp:[1767225600..1767830399]',
    );
    expect(one({ op: 'between', field: 'min_ticket_price', min: -1.5, max: 0.25 })).toBe(
      'min_ticket_price:[-1.5..0.25]',
    );
    expect(one({ op: 'eq', field: 'venues.venue_id', value: 3 }, 'Performer')).toBe('venues.venue_id:=3');
    expect(one({ op: 'eq', field: 'id', value: '123' })).toBe('id:=`123`');
  });

  it('renders the geo filter in miles', () => {
    expect(
      filterBy({ collection: 'Venue', geo: { field: 'venue_location', lat: 40.7128, lng: -74.006, radiusMiles: 25 } }),
    ).toBe('venue_location:(40.7128, -74.006, 25 mi)');
    expect(
      filterBy({ collection: 'Performer', geo: { field: 'venue_locations', lat: 0, lng: 0, radiusMiles: 0.5 } }),
    ).toBe('venue_locations:(0, 0, 0.5 mi)');
  });

  it('joins filters and the geo filter with &&, in request order', () => {
    expect(
      filterBy({
        collection: 'Event',
        filters: [
          { op: 'eq', field: 'category', value: 'nfl' },
          { op: 'gte', field: 'event_timestamp', value: 1767225600 },
          { op: 'nin', field: 'event_status', values: ['cancelled'] },
        ],
        geo: { field: 'venue_location', lat: 34.05, lng: -118.25, radiusMiles: 100 },
      }),
    ).toBe(
      'category:=`nfl` && event_timestamp:>=1767225600 && ' +
        'event_status:!=[`cancelled`] && venue_location:(34.05, -118.25, 100 mi)',
    );
  });

  it('writes numbers without exponent notation', () => {
    expect(renderNumber(1e21)).toBe('1000000000000000000000');
    expect(renderNumber(1.5e-7)).toBe('0.00000015');
    expect(renderNumber(-2.5e-10)).toBe('-0.00000000025');
    expect(renderNumber(1.2345e22)).toBe('12345000000000000000000');
    expect(renderNumber(-0)).toBe('0');
    expect(renderNumber(123.456)).toBe('123.456');
    expect(one({ op: 'gt', field: 'min_ticket_price', value: 1e-7 })).toBe('min_ticket_price:>0.0000001');
  });

  it('refuses numbers that are not finite, even when the schema was bypassed', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => compileSearch(raw({ filters: [{ op: 'gt', field: 'min_ticket_price', value }] }))).toThrow(
        SearchCompileError,
      );
      expect(() => compileSearch(raw({ filters: [{ op: 'eq', field: 'venue_id', value }] }))).toThrow(
        SearchCompileError,
      );
    }
    expect(() =>
      compileSearch(raw({ geo: { field: 'venue_location', lat: Number.NaN, lng: 0, radiusMiles: 1 } })),
    ).toThrow(SearchCompileError);
  });

  it('refuses field names that are not names, unknown fields and unfit operators', () => {
    expect(() => compileSearch(raw({ filters: [{ op: 'eq', field: 'category:=x || id', value: 'y' }] }))).toThrow(
      /not a field name/,
    );
    expect(() => compileSearch(raw({ filters: [{ op: 'eq', field: 'nope', value: 'y' }] }))).toThrow(/no field `nope`/);
    expect(() => compileSearch(raw({ sort: [{ by: 'a:desc,b', order: 'asc' }] }))).toThrow(/not a field name/);
    expect(() => compileSearch(raw({ includeFields: ['a,b'] }))).toThrow(/not a field name/);
    expect(() => one({ op: 'gt', field: 'category', value: 1 })).toThrow(/not numeric/);
    expect(() => one({ op: 'eq', field: 'venue_location', value: 1 })).toThrow(/cannot be filtered on/);
    expect(() => one({ op: 'eq', field: 'venues', value: 1 }, 'Performer')).toThrow(/cannot be filtered on/);
    expect(() =>
      filterBy({ collection: 'Event', geo: { field: 'venue_name', lat: 0, lng: 0, radiusMiles: 1 } }),
    ).toThrow(/not a geo field/);
  });

  it('throws an error the HTTP layer answers with 400', () => {
    let error: unknown;
    try {
      one({ op: 'eq', field: 'category', value: 'a`b' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SearchCompileError);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_search', details: { field: 'category', value: 'a`b' } });
  });
});

describe('compileSearch: injection', () => {
  const hostile = [
    'x && price:>0',
    'x || id:=[1, 2]',
    ') || (',
    '(',
    ']',
    '[a, b]',
    ':=',
    ':!=',
    'a, b',
    'a,`b',
    '$Venue(venue_id:>0)',
    '\\',
    'a\\b',
    '"quoted" and \'single\'',
    'Beyoncé — 東京 🎤',
    'zero\u200bwidth',
    'right\u202eto-left',
    'line\u2028separator',
    '100%',
    'a:b',
    '..',
    '&',
    '|',
  ];
  // Filters that follow the hostile one: were it to escape its quotes, they would be swallowed or changed.
  const after = [{ op: 'gte' as const, field: 'event_timestamp', value: 1 }];

  it.each(hostile.filter((v) => !v.includes('`') && !v.endsWith('\\')))('keeps %j inside one quoted value', (value) => {
    for (const op of ['eq', 'neq'] as const) {
      const filter = filterBy({ collection: 'Event', filters: [{ op, field: 'category', value }, ...after] })!;
      const tokens = typesenseTokens(filter);
      expect(tokens).toHaveLength(3);
      expect(tokens[1]).toBe('&&');
      expect(readClause(tokens[0]!)).toEqual({
        field: 'category',
        op: op === 'eq' ? '=' : '!=',
        values: [value.trim()],
      });
      expect(tokens[2]).toBe('event_timestamp:>=1');
    }
    for (const op of ['in', 'nin'] as const) {
      const filter = filterBy({
        collection: 'Event',
        filters: [{ op, field: 'category', values: [value, 'nfl', value] }, ...after],
      })!;
      const tokens = typesenseTokens(filter);
      expect(tokens).toHaveLength(3);
      expect(readClause(tokens[0]!)).toEqual({
        field: 'category',
        op: op === 'in' ? '=' : '!=',
        values: [value, 'nfl', value],
      });
    }
  });

  it.each([
    ['a`, b', /backtick/],
    ['`', /backtick/],
    ['x` || category:`y', /backtick/],
    ['a\\', /backslash/],
    ['a:(b', /`:` followed by `\(`/],
    ['a:   (b', /`:` followed by `\(`/],
    ['line\nbreak', /control/],
    ['carriage\rreturn', /control/],
    ['tab\there', /control/],
    ['nul\u0000', /control/],
    ['del\u007f', /control/],
    ['c1\u0085', /control/],
    ['lone\ud800surrogate', /control/],
    ['', /empty/],
    ['   ', /empty/],
    [' padded', /whitespace/],
    ['padded ', /whitespace/],
    ['Acm*', /`\*`/],
    ['*', /`\*`/],
  ])('refuses %j', (value, reason) => {
    expect(() => quoteString(value, 'category')).toThrow(reason);
    expect(() => filterBy({ collection: 'Event', filters: [{ op: 'eq', field: 'category', value }] })).toThrow(
      SearchCompileError,
    );
    expect(() =>
      filterBy({ collection: 'Event', filters: [{ op: 'in', field: 'category', values: ['nfl', value] }] }),
    ).toThrow(SearchCompileError);
  });

  it('refuses `:(` because Typesense’s tokenizer would swallow the next clause', () => {
    expect(typesenseTokens('venue_city:=`a:(b` && event_timestamp:>=1')).toHaveLength(1);
    expect(typesenseTokens('venue_city:=`a(b` && event_timestamp:>=1')).toHaveLength(3);
  });

  it('refuses a trailing backslash because it would merge list values', () => {
    expect(splitToValues('`a\\`,`b`')).toEqual(['a\\`,b']);
    expect(splitToValues('`a\\b`,`c`')).toEqual(['a\\b', 'c']);
  });

  it('never lets a value add a clause: the number of clauses is the number of filters', () => {
    const filter = filterBy({
      collection: 'Event',
      filters: hostile
        .filter((v) => !v.includes('`') && !v.endsWith('\\'))
        .slice(0, 20)
        .map((value) => ({ op: 'eq' as const, field: 'category', value })),
    })!;
    const tokens = typesenseTokens(filter);
    const clauses = tokens.filter((t) => t !== '&&');
    expect(tokens.filter((t) => t === '&&')).toHaveLength(clauses.length - 1);
    expect(tokens.some((t) => t === '||' || t === '(' || t === ')')).toBe(false);
    expect(clauses.every((c) => readClause(c).field === 'category')).toBe(true);
  });
});

describe('compileSearch: sort', () => {
  const geo = { field: 'venue_location', lat: 40.75, lng: -73.99, radiusMiles: 30 };

  it('renders field, relevance and distance keys', () => {
    expect(compile({ collection: 'Event', sort: [{ by: 'event_orders_t12', order: 'desc' }] }).sort_by).toBe(
      'event_orders_t12:desc',
    );
    expect(compile({ collection: 'Event', sort: [{ by: '_text_match', order: 'desc' }] }).sort_by).toBe(
      '_text_match:desc',
    );
    expect(compile({ collection: 'Event', geo, sort: [{ by: '_geo_distance', order: 'asc' }] }).sort_by).toBe(
      'venue_location(40.75, -73.99):asc',
    );
    expect(compile({ collection: 'Event', geo, sort: [{ by: '_geo_distance', order: 'desc' }] }).sort_by).toBe(
      'venue_location(40.75, -73.99):desc',
    );
    expect(compile({ collection: 'Performer', sort: [{ by: 'performer_name', order: 'asc' }] }).sort_by).toBe(
      'performer_name:asc',
    );
    expect(compile({ collection: 'Venue', sort: [{ by: 'venue_state_province_short', order: 'asc' }] }).sort_by).toBe(
      'venue_state_province_short:asc',
    );
  });

  it('keeps nulls last on nullable fields, whatever the order', () => {
    expect(compile({ collection: 'Event', sort: [{ by: 'event_timestamp', order: 'asc' }] }).sort_by).toBe(
      'event_timestamp(missing_values: last):asc',
    );
    expect(compile({ collection: 'ZipEvent', sort: [{ by: 'event_local_timestamp', order: 'desc' }] }).sort_by).toBe(
      'event_local_timestamp(missing_values: last):desc',
    );
  });

  it('adds relevance after the keys of a text query, and distance after those of a geo query, up to 3 keys', () => {
    expect(
      compile({
        collection: 'Event',
        q: 'jazz',
        queryBy: ['event_name'],
        sort: [{ by: 'event_timestamp', order: 'asc' }],
      }).sort_by,
    ).toBe('event_timestamp(missing_values: last):asc,_text_match:desc');
    expect(compile({ collection: 'Event', geo }).sort_by).toBe('venue_location(40.75, -73.99):asc');
    expect(compile({ collection: 'Event', q: 'jazz', queryBy: ['event_name'], geo }).sort_by).toBe(
      '_text_match:desc,venue_location(40.75, -73.99):asc',
    );
    expect(
      compile({
        collection: 'Event',
        q: 'jazz',
        queryBy: ['event_name'],
        geo,
        sort: [
          { by: 'min_ticket_price', order: 'asc' },
          { by: 'event_orders_t12', order: 'desc' },
        ],
      }).sort_by,
    ).toBe('min_ticket_price:asc,event_orders_t12:desc,_text_match:desc');
    expect(compile({ collection: 'Event' })).not.toHaveProperty('sort_by');
  });

  it('refuses keys Typesense cannot sort by', () => {
    expect(() => compile({ collection: 'Performer', sort: [{ by: 'image', order: 'asc' }] })).toThrow(
      /cannot be sorted on/,
    );
    expect(() => compile({ collection: 'Event', sort: [{ by: 'performer_ids', order: 'asc' }] })).toThrow(
      /cannot be sorted on/,
    );
    expect(() => compile({ collection: 'Event', sort: [{ by: 'id', order: 'asc' }] })).toThrow(/cannot be sorted on/);
    expect(() => compileSearch(raw({ sort: [{ by: '_geo_distance', order: 'asc' }] }))).toThrow(/needs a geo filter/);
    expect(() => compileSearch(raw({ sort: [{ by: 'event_name', order: 'sideways' as 'asc' }] }))).toThrow(
      /sort order/,
    );
  });
});

describe('compileSearch: a whole request', () => {
  it('pins every parameter of a combined request', () => {
    expect(
      compile({
        collection: 'Event',
        q: 'knicks',
        queryBy: ['event_name', 'performer_names'],
        filters: [
          { op: 'in', field: 'category', values: ['nba', 'ncaa-basketball'] },
          { op: 'between', field: 'event_timestamp', min: 1767225600, max: 1769903999 },
          { op: 'gt', field: 'tickets_available', value: 0 },
        ],
        geo: { field: 'venue_location', lat: 40.7505, lng: -73.9934, radiusMiles: 50 },
        sort: [{ by: '_geo_distance', order: 'asc' }],
        page: 2,
        perPage: 24,
        includeFields: ['event_id', 'event_name', 'venue_name', 'event_local_timestamp', 'min_ticket_price'],
      }),
    ).toEqual({
      q: 'knicks',
      query_by: 'event_name,performer_names',
      query_by_weights: '2,1',
      prefix: true,
      num_typos: 2,
      min_len_1typo: 4,
      min_len_2typo: 7,
      max_candidates: 4,
      typo_tokens_threshold: 1,
      drop_tokens_threshold: 0,
      filter_by:
        'category:=[`nba`,`ncaa-basketball`] && ' +
        'event_timestamp:[1767225600..1769903999] && tickets_available:>0 && ' +
        'venue_location:(40.7505, -73.9934, 50 mi)',
      sort_by: 'venue_location(40.7505, -73.9934):asc,_text_match:desc',
      page: 2,
      per_page: 24,
      include_fields: 'event_id,event_name,venue_name,event_local_timestamp,min_ticket_price',
    });
  });

  it('is pure: the same request gives the same parameters and is not changed', () => {
    const request = parse({
      collection: 'Venue',
      q: 'garden',
      queryBy: ['venue_name', 'venue_city'],
      filters: [{ op: 'eq', field: 'venue_state_province_short', value: 'NY' }],
    });
    const copy = structuredClone(request);
    expect(compileSearch(request)).toEqual(compileSearch(request));
    expect(request).toEqual(copy);
  });
});
