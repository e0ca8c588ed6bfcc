// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListingsPanel } from './listings.js';
import { json, mockFetch } from '../../test/fetch-stub.js';
import { renderAt } from '../../test/render-page.js';
import { listing, listingsBody, SLUG } from '../../test/buying-fixtures.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const LISTINGS = [
  listing({
    id: 1,
    section: 'Section 101',
    row: '3',
    allInPricePerTicket: 80,
    accessible: true,
    dealRating: { rating: 'great', median: 100, comparedWith: 'Lower Level', comparables: 3 },
  }),
  listing({ id: 2, section: 'Section 101', row: '9', allInPricePerTicket: 95 }),
  listing({ id: 3, section: 'Upper Level 320', row: '20', allInPricePerTicket: 40, obstructedView: true }),
  listing({ id: 4, section: 'Dugout Box', row: '1', allInPricePerTicket: 400 }),
];

async function renderPanel() {
  mockFetch({ [`GET /api/events/${SLUG}/listings`]: () => json(listingsBody(LISTINGS)) });
  renderAt(<ListingsPanel slug={SLUG} withSeatMap />, { route: `/events/${SLUG}` });
  await screen.findByRole('listitem', { name: 'Section 101, Row 3' });
  return screen.getByRole('region', { name: 'Tickets' });
}

const titles = (panel: HTMLElement) => [...panel.querySelectorAll('.listing__title')].map((t) => t.textContent);
const mapSection = (panel: HTMLElement, name: string) =>
  panel.querySelector(`.seat-map__svg [data-section="${name}"]`)!;

describe('the seat map on the listings', () => {
  it('lists each section as a button with its lowest price and count, and sections off the map apart', async () => {
    const panel = await renderPanel();
    expect(
      within(panel)
        .getByRole('button', { name: 'Section 101, from $80, 2 listings, accessible seating' })
        .getAttribute('aria-pressed'),
    ).toBe('false');
    expect(
      within(panel).getByRole('button', { name: 'Upper Level 320, from $40, 1 listing, obstructed view' }),
    ).toBeTruthy();
    expect(
      within(within(panel).getByRole('list', { name: 'Other sections' })).getByRole('button', {
        name: 'Dugout Box, from $400, 1 listing',
      }),
    ).toBeTruthy();
    expect(within(panel).getByText('Other section: not on the map')).toBeTruthy();
    // The cheapest section is in the first band, the dearest on the map in the last.
    expect(mapSection(panel, 'Upper Level 320').querySelector('path')!.getAttribute('class')).toBe('price-band--0');
    expect(mapSection(panel, 'Section 101').querySelector('path')!.getAttribute('class')).toBe('price-band--1');
    expect(mapSection(panel, 'Section 102').classList.contains('seat-map__section--empty')).toBe(true);
    expect(within(panel).getByRole('list', { name: 'Price bands' }).textContent).toContain('$40');
  });

  it('filters the listings to the sections chosen in the list or on the map, and clears them', async () => {
    const panel = await renderPanel();
    fireEvent.click(within(panel).getByRole('button', { name: /^Section 101, from/ }));
    await waitFor(() => expect(titles(panel)).toEqual(['Section 101, Row 3', 'Section 101, Row 9']));
    expect(
      within(panel)
        .getByRole('button', { name: /^Section 101, from/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(mapSection(panel, 'Section 101').getAttribute('data-selected')).toBe('true');
    fireEvent.click(mapSection(panel, 'Upper Level 320'));
    await waitFor(() => expect(titles(panel)).toHaveLength(3));
    expect(within(panel).getByText('3 of 4 listings for 2 tickets, in the sections chosen')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Clear sections' }));
    await waitFor(() => expect(titles(panel)).toHaveLength(4));
  });

  it("outlines a listing's section on the map and says so; states the deal rule and each rating", async () => {
    const panel = await renderPanel();
    const item = within(panel).getByRole('listitem', { name: 'Section 101, Row 3' });
    expect(within(item).getByText('Great deal')).toBeTruthy();
    expect(within(item).getByText('20% below the Lower Level median ($100)')).toBeTruthy();
    expect(within(item).getByText(/Wheelchair-accessible seating/)).toBeTruthy();
    expect(
      within(panel).getByText(/Deal ratings compare each listing's price per ticket, fees included, with the median/),
    ).toBeTruthy();
    const show = within(item).getByRole('button', { name: 'Show Section 101 on the map' });
    fireEvent.click(show);
    expect(show.getAttribute('aria-pressed')).toBe('true');
    expect(mapSection(panel, 'Section 101').classList.contains('seat-map__section--highlighted')).toBe(true);
    expect(within(panel).getByText(/Section 101 is outlined on the map/)).toBeTruthy();
    fireEvent.click(show);
    expect(mapSection(panel, 'Section 101').classList.contains('seat-map__section--highlighted')).toBe(false);
  });
});
