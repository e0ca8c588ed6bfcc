import { describe, expect, it } from 'vitest';
import { BrowserEventSchema } from './analytics-events.js';
import { browserEventProblem, EVENT_POSITION_MAX, EVENT_TEXT_MAX, isEventId } from './browser-events.js';

const base = { id: 'event-id-0001', pageView: 'page-view-0001', page: '/', at: 1_790_000_000_000 };
const click = { ...base, name: 'row_click', rowId: 'popular', position: 1, item: 'performer:1' };
const text = (n: number) => 'é'.repeat(n);

/** Events the server takes, and events it refuses for one reason each. */
const EVENTS: [label: string, event: unknown][] = [
  ['a page view', { ...base, name: 'page_view', variation: 'base' }],
  ['a row click', click],
  ['a row click with everything', { ...click, itemPosition: 3, source: { file: 'base/explore.json', version: 4 } }],
  ['a row source without a version', { ...click, source: { file: 'base/explore.json', version: null } }],
  ['an exposure', { ...base, name: 'experiment_viewed', experimentId: 'home-layout', variationId: '1' }],
  ['an add to cart', { ...base, name: 'add_to_cart', item: 'listing:9' }],
  ['a failed checkout', { ...base, name: 'checkout_failed', reason: 'card_failed:payment_declined' }],
  ['texts at their longest', { ...click, rowId: text(EVENT_TEXT_MAX.rowId), page: `/${text(299)}` }],
  ['positions at their largest', { ...click, position: EVENT_POSITION_MAX, itemPosition: EVENT_POSITION_MAX }],
  ['a time of 0', { ...base, name: 'page_view', at: 0 }],
  ['not an object', null],
  ['an unknown name', { ...base, name: 'purchase' }],
  ['no name', base],
  ['a short id', { ...click, id: 'short' }],
  ['an id with a space', { ...click, id: 'event id 0001' }],
  ['a page view id too long', { ...click, pageView: 'p'.repeat(65) }],
  ['a page not a path', { ...click, page: 'home' }],
  ['a page too long', { ...click, page: `/${text(300)}` }],
  ['an empty page', { ...click, page: '' }],
  ['a time not whole', { ...click, at: 1.5 }],
  ['a negative time', { ...click, at: -1 }],
  ['a time as text', { ...click, at: '1790000000000' }],
  ['a row click without its row', { ...base, name: 'row_click', position: 1, item: 'performer:1' }],
  ['a row click without its place', { ...base, name: 'row_click', rowId: 'popular', item: 'performer:1' }],
  ['a row click without its item', { ...base, name: 'row_click', rowId: 'popular', position: 1 }],
  ['an impression without its row', { ...base, name: 'row_impression', position: 1 }],
  ['an exposure without its variation', { ...base, name: 'experiment_viewed', experimentId: 'home-layout' }],
  ['an add to cart without its item', { ...base, name: 'add_to_cart' }],
  ['an empty row id', { ...click, rowId: '' }],
  ['a row id too long', { ...click, rowId: text(EVENT_TEXT_MAX.rowId + 1) }],
  ['an item too long', { ...click, item: text(EVENT_TEXT_MAX.item + 1) }],
  ['a variation too long', { ...click, variation: text(EVENT_TEXT_MAX.variation + 1) }],
  ['a reason too long', { ...base, name: 'checkout_failed', reason: text(EVENT_TEXT_MAX.reason + 1) }],
  ['a position of 0', { ...click, position: 0 }],
  ['a position too large', { ...click, position: EVENT_POSITION_MAX + 1 }],
  ['a card place not whole', { ...click, itemPosition: 2.5 }],
  ['a source without a file', { ...click, source: { version: 1 } }],
  ['a source file too long', { ...click, source: { file: text(EVENT_TEXT_MAX.sourceFile + 1), version: 1 } }],
  ['a source version of 0', { ...click, source: { file: 'base/explore.json', version: 0 } }],
  ['a source as text', { ...click, source: 'base/explore.json' }],
  ['an experiment id as a number', { ...base, name: 'experiment_viewed', experimentId: 7, variationId: '1' }],
];

describe('the hand check of a browser event', () => {
  it.each(EVENTS)('answers as the schema does: %s', (_label, event) => {
    const problem = browserEventProblem(event);
    const parsed = BrowserEventSchema.safeParse(event);
    expect(problem === null).toBe(parsed.success);
  });

  it('takes some events and refuses others (the table is not one-sided)', () => {
    const taken = EVENTS.filter(([, event]) => browserEventProblem(event) === null).length;
    expect(taken).toBe(10);
  });

  it('names what is wrong', () => {
    expect(browserEventProblem({ ...base, name: 'row_click', rowId: 'popular', item: 'x' })).toBe(
      'row_click needs position',
    );
    expect(browserEventProblem({ ...click, page: 'home' })).toBe('bad page');
  });

  it('reads ids as the schema does', () => {
    for (const id of ['abcdefgh', 'A'.repeat(64), 'a_b-c_d-e', 'short', 'a'.repeat(65), 'with space', 7])
      expect(isEventId(id)).toBe(typeof id === 'string' && BrowserEventSchema.shape.id.safeParse(id).success);
  });
});
