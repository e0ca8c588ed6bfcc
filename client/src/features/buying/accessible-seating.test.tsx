// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CartSummary } from './cart-summary.js';
import { companionSeatsNote } from './companion-seats.js';
import { ListingsPanel } from './listings.js';
import { readListingsFilter } from './listings-filter.js';
import { TicketList } from './order-view.js';
import { json, mockFetch, urlsOf } from '../../test/fetch-stub.js';
import { renderAt } from '../../test/render-page.js';
import { listing, listingsBody, order, SLUG } from '../../test/buying-fixtures.js';

/** RULES 10.15 and 10.16 in the listings panel, its seat map, the cart summary and the order's tickets. */

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ACCESSIBLE = listing({
  id: 1,
  section: 'Section 101',
  row: '3',
  allInPricePerTicket: 80,
  accessible: true,
  companionSeats: 2,
});
const OTHER = listing({ id: 2, section: 'Section 102', row: '9', allInPricePerTicket: 95 });

function setup(route = `/events/${SLUG}`) {
  const fetchMock = mockFetch({
    [`GET /api/events/${SLUG}/listings`]: (url) =>
      json(listingsBody(url.searchParams.get('accessible') === '1' ? [ACCESSIBLE] : [ACCESSIBLE, OTHER])),
  });
  renderAt(<ListingsPanel slug={SLUG} withSeatMap />, { route });
  return { fetchMock, user: userEvent.setup() };
}

const listed = () => [...document.querySelectorAll('.listing__title')].map((t) => t.textContent);

describe('accessible seating only (RULES 10.15)', () => {
  it('reads 1 or true from the address, and nothing else', () => {
    for (const [value, on] of [
      ['1', true],
      ['true', true],
      ['0', false],
      ['yes', false],
    ] as const)
      expect(readListingsFilter(new URLSearchParams({ accessible: value })).accessible === true).toBe(on);
  });

  it('is a checkbox kept in the address that refetches, and the seat map offers only accessible sections', async () => {
    const { fetchMock, user } = setup();
    await screen.findByRole('listitem', { name: 'Section 102, Row 9' });
    const box = screen.getByRole('checkbox', { name: 'Accessible seating only' }) as HTMLInputElement;
    expect(box.checked).toBe(false);
    expect(screen.getByRole('button', { name: /^Section 102, from \$95/ })).toBeTruthy();

    // With the keyboard: Tab to it, Space to tick it.
    box.focus();
    await user.keyboard(' ');
    expect(box.checked).toBe(true);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toContain('accessible=1'));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Section 102, Row 9' })).toBeNull());
    expect(
      urlsOf(fetchMock, `/api/events/${SLUG}/listings`).some((u) => u.searchParams.get('accessible') === '1'),
    ).toBe(true);
    expect(listed()).toEqual(['Section 101, Row 3']);
    const panel = screen.getByRole('region', { name: 'Tickets' });
    expect(within(panel).getByText(/1 listing for 2 tickets with accessible seating/)).toBeTruthy();
    // Section 102 has no accessible seating: not offered in the list, drawn without tickets, and said so.
    expect(screen.queryByRole('button', { name: /^Section 102/ })).toBeNull();
    expect(
      panel
        .querySelector('.seat-map__svg [data-section="Section 102"]')!
        .classList.contains('seat-map__section--empty'),
    ).toBe(true);
    expect(panel.querySelector('.seat-map__caption')!.textContent).toContain(
      'Only sections with accessible seating are offered',
    );
    const status = panel.querySelector('.seat-map__status')!;
    expect(status.getAttribute('aria-live')).toBe('polite');
    expect(status.textContent).toBe('Showing accessible seating only: 1 section has it.');
    expect(panel.querySelector('.section-list summary')!.textContent).toBe(
      'Choose sections from a list (1 section with accessible seating)',
    );

    await user.click(box);
    await screen.findByRole('listitem', { name: 'Section 102, Row 9' });
    expect(screen.getByTestId('location').textContent).not.toContain('accessible');
  });

  it('starts ticked from the address, on /tickets/ pages too', async () => {
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: (url) =>
        json(listingsBody(url.searchParams.get('accessible') === '1' ? [ACCESSIBLE] : [ACCESSIBLE, OTHER])),
    });
    renderAt(<ListingsPanel slug={SLUG} />, { route: `/tickets/${SLUG}?accessible=1` });
    await screen.findByRole('listitem', { name: 'Section 101, Row 3' });
    expect((screen.getByRole('checkbox', { name: 'Accessible seating only' }) as HTMLInputElement).checked).toBe(true);
    expect(listed()).toEqual(['Section 101, Row 3']);
  });

  it('says when no listing has accessible seating', async () => {
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: (url) =>
        json(listingsBody(url.searchParams.get('accessible') === '1' ? [] : [OTHER])),
    });
    renderAt(<ListingsPanel slug={SLUG} />, { route: `/events/${SLUG}?accessible=1` });
    expect(
      await screen.findByText(
        'No tickets for 2 tickets with accessible seating. Try a different number of tickets, or show every seat.',
      ),
    ).toBeTruthy();
  });
});

describe('companion seats in the cart and the order (RULES 10.16)', () => {
  it('are told on a listing that offers them, and only there', () => {
    expect(companionSeatsNote(ACCESSIBLE)).toBe('2 companion seats can come with the wheelchair spaces, one per space');
    expect(companionSeatsNote({ accessible: true, companionSeats: 1 })).toBe(
      '1 companion seat can come with the wheelchair spaces, one per space',
    );
    expect(companionSeatsNote({ accessible: true, companionSeats: 0 })).toBeNull();
    expect(companionSeatsNote(OTHER)).toBeNull();
  });

  it('are named in the cart summary', () => {
    render(<CartSummary quantity={3} companions={1} lineItems={[]} total={240} />);
    expect(screen.getByText('3 tickets (1 companion seat)')).toBeTruthy();
  });

  it('are named on the order page’s tickets', () => {
    const base = order();
    const tickets = [
      { ...base.tickets[0]!, seat: 3 },
      { ...base.tickets[1]!, id: 'TAAAAAAAAAAAAA4', seat: 11, companion: true },
    ];
    renderAt(<TicketList order={{ ...base, tickets }} code={null} />);
    const items = screen.getAllByRole('listitem').map((li) => li.querySelector('strong')!.textContent);
    expect(items).toEqual([
      'Ticket 1: Section 112, Row F, Seat 3',
      'Ticket 2: Section 112, Row F, Seat 11, Companion seat',
    ]);
  });
});
