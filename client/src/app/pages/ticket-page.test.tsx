// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ListingsPanel } from '../../features/buying/listings.js';
import { TicketPage } from './ticket-page.js';
import { apiError, type Handler, json, mockFetch, urlsOf } from '../../test/fetch-stub.js';
import { renderAt, setUpPageTests } from '../../test/render-page.js';
import { sentEvents } from '../../test/events.js';
import { cart, CART_ID, EVENT, listing, listingDetail, listingsBody, SLUG } from '../../test/buying-fixtures.js';

function setup(
  createCart: Handler,
  { quantity = 2, splits = [1, 2, 4] }: { quantity?: number; splits?: number[] } = {},
) {
  const fetchMock = mockFetch({
    'GET /api/listings/11': () => json(listingDetail({ splits })),
    [`GET /api/events/${SLUG}/listings`]: () => json(listingsBody([listing()])),
    'POST /api/cart': createCart,
  });
  renderAt(<TicketPage />, { route: `/tickets/${SLUG}?listing=11&quantity=${quantity}`, path: 'tickets/*' });
  return { fetchMock, user: userEvent.setup() };
}

setUpPageTests();

describe('ticket page', () => {
  it('says the shopper’s allowance before checkout and does not offer quantities beyond it (RULES 8.1)', async () => {
    const fetchMock = mockFetch({
      'GET /api/listings/11': () => json(listingDetail({ splits: [1, 2, 4] })),
      'GET /api/purchase-limits': () =>
        json({
          eventId: 501,
          perShopper: { limit: 8, used: 6 },
          perNetwork: { limit: 32, used: 6 },
          left: 2,
          cartsLeft: 2,
        }),
    });
    renderAt(<TicketPage />, { route: `/tickets/${SLUG}?listing=11&quantity=4`, path: 'tickets/*' });
    const note = await screen.findByRole('note');
    expect(note.textContent).toBe(
      'Up to 8 tickets per shopper for an event, and 32 from one internet connection: ' +
        'you can add up to 2 tickets (you hold or bought 6).',
    );
    // Said before the button that would meet the limit.
    const button = screen.getByRole('button', { name: 'Continue to checkout' });
    expect(note.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const four = screen.getByRole('option', { name: '4 tickets (over your limit)' }) as HTMLOptionElement;
    expect(four.disabled).toBe(true);
    expect((screen.getByRole('option', { name: '2 tickets' }) as HTMLOptionElement).disabled).toBe(false);
    // The 4 asked for in the address is not taken as chosen.
    expect((screen.getByRole('combobox', { name: 'Number of tickets' }) as HTMLSelectElement).value).toBe('');
    const asked = urlsOf(fetchMock, '/api/purchase-limits');
    expect(asked.map((u) => u.searchParams.get('eventId'))).toContain('501');
  });

  it('offers no checkout once the shopper has all the tickets they may have of the event', async () => {
    mockFetch({
      'GET /api/listings/11': () => json(listingDetail()),
      'GET /api/purchase-limits': () =>
        json({
          eventId: 501,
          perShopper: { limit: 8, used: 8 },
          perNetwork: { limit: 32, used: 8 },
          left: 0,
          cartsLeft: 2,
        }),
    });
    renderAt(<TicketPage />, { route: `/tickets/${SLUG}?listing=11&quantity=2`, path: 'tickets/*' });
    expect((await screen.findByRole('note')).textContent).toContain('You already hold or bought all the tickets');
    expect((screen.getByRole('button', { name: 'Continue to checkout' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the listing, the quantity and the price breakdown, then holds the tickets and opens checkout', async () => {
    const { fetchMock, user } = setup(() => json(cart(), 201));
    expect(await screen.findByRole('heading', { level: 1, name: `Tickets for ${EVENT.name}` })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Section 112, Row F' })).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Number of tickets' }) as HTMLSelectElement).value).toBe('2');
    await waitFor(() => expect(screen.getByText('Service fee (18%)').nextElementSibling?.textContent).toBe('$18'));
    expect(screen.getByText('Total for 2 tickets:').textContent).toContain('$236');
    // The fee rate comes with the listing: no second request for the whole event's listings.
    expect(urlsOf(fetchMock, `/api/events/${SLUG}/listings`)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Continue to checkout' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/checkout/${CART_ID}`));
    const post = fetchMock.mock.calls.find(([u, init]) => String(u) === '/api/cart' && init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ listingId: 11, quantity: 2 });
    expect(new Headers(post?.[1]?.headers).get('Authorization')).toMatch(/^Bearer /);
    // RULES 10.6: the hold is asked for under a key, so a retry after a lost answer gets this cart back.
    expect(new Headers(post?.[1]?.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(sentEvents(fetchMock)).toEqual([expect.objectContaining({ name: 'add_to_cart', item: 'listing:11' })]);
  });

  it('says the tickets were just taken on a 409, with a link back to the listings', async () => {
    const { user } = setup(() => apiError(409, 'not_enough_tickets', 'Only 1 ticket is left in this listing.'));
    await user.click(await screen.findByRole('button', { name: 'Continue to checkout' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Those tickets were just taken');
    expect(alert.textContent).toContain('Only 1 ticket is left in this listing.');
    expect(screen.getByRole('link', { name: 'See other tickets for this event' }).getAttribute('href')).toBe(
      `${EVENT.url}?quantity=2`,
    );
    expect(screen.queryByRole('button', { name: 'Continue to checkout' })).toBeNull();
  });

  it('names the fair-share rule on a ticket limit instead of saying the tickets were taken', async () => {
    const { user } = setup(() =>
      apiError(
        409,
        'ticket_limit',
        'You may hold or buy at most 8 tickets for one event; 8 are already held or bought, so no more can be added',
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Continue to checkout' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('at most 8 tickets for one event');
    expect(alert.textContent).not.toContain('just taken');
    expect(screen.getByRole('button', { name: 'Continue to checkout' })).toBeTruthy();
  });

  it('asks for a quantity the seller allows when the requested one is not', async () => {
    const { fetchMock, user } = setup(() => json(cart({ quantitySelected: 4 }), 201), { quantity: 3, splits: [2, 4] });
    const select = (await screen.findByRole('combobox', { name: 'Number of tickets' })) as HTMLSelectElement;
    expect(select.value).toBe('');
    expect(
      screen.getByText(/This seller does not sell 3 tickets from this listing\. Choose one of 2, 4\./),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Continue to checkout' }));
    expect(screen.getByText('Choose how many tickets you want')).toBeTruthy();
    expect(document.activeElement).toBe(select);
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/cart')).toBe(false);
    await user.selectOptions(select, '4');
    await user.click(screen.getByRole('button', { name: 'Continue to checkout' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/checkout/${CART_ID}`));
  });

  it('shows the server’s message for a quantity the splits refuse', async () => {
    const { user } = setup(() => apiError(400, 'invalid_quantity', 'This seller sells these tickets in pairs.'));
    await user.click(await screen.findByRole('button', { name: 'Continue to checkout' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This seller sells these tickets in pairs.');
  });

  it('lists the event’s tickets to choose from when no listing is chosen yet', async () => {
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: () => json(listingsBody([listing()])),
      [`GET /api/events/${SLUG}`]: () =>
        json({ event: EVENT, venue: null, performers: [], morePerformerEvents: [], moreVenueEvents: [] }),
    });
    renderAt(<TicketPage />, { route: `/tickets/${SLUG}`, path: 'tickets/*' });
    expect(await screen.findByRole('heading', { level: 1, name: `Tickets for ${EVENT.name}` })).toBeTruthy();
    const select = await screen.findByRole('link', { name: /^Select Section 112, Row F, 2 tickets/ });
    expect(select.getAttribute('href')).toBe(`/tickets/${SLUG}?listing=11&quantity=2`);
  });
});

describe('what a listing discloses (RULES 20.1)', () => {
  const disclosed = {
    sellerNotes: 'Obstructed view',
    obstructedView: true,
    faceValue: 80,
    ticketsHeld: false,
    ageRestriction: '18+ only, valid photo ID required',
  };
  const linesIn = (root: HTMLElement) =>
    [...root.querySelectorAll('.disclosures li')].map((li) => (li.textContent ?? '').trim());

  it('is the same on the event page and the ticket page, each note once, with the guarantee linked', async () => {
    mockFetch({
      'GET /api/listings/11': () => json(listingDetail(disclosed)),
      [`GET /api/events/${SLUG}/listings`]: () => json(listingsBody([listing(disclosed)])),
    });
    const panel = renderAt(<ListingsPanel slug={SLUG} />, { route: `/events/${SLUG}` });
    const item = await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    const onEventPage = linesIn(item);
    panel.unmount();
    renderAt(<TicketPage />, { route: `/tickets/${SLUG}?listing=11&quantity=2`, path: 'tickets/*' });
    await screen.findByRole('heading', { name: 'Section 112, Row F' });
    const onTicketPage = linesIn(document.body);
    expect(onTicketPage).toEqual(onEventPage);
    expect(onTicketPage).toEqual([
      '⚠ Obstructed or limited view',
      '⚠ 18+ only, valid photo ID required',
      'Face value $80 per ticket',
      'eTicket · In hand by Dec 20, 2026',
      expect.stringMatching(/^Notice: The seller does not have these tickets yet .*full refund\.$/),
      'Covered by our 100% Money Back Guarantee',
    ]);
    expect(document.body.textContent?.match(/obstructed/gi)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Covered by our 100% Money Back Guarantee' }).getAttribute('href')).toBe(
      '/guarantee',
    );
  });

  it('says with the accessible seating how many companion seats can come with it (RULES 10.16)', async () => {
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: () =>
        json(listingsBody([listing({ accessible: true, companionSeats: 2, sellerNotes: 'Wheelchair accessible' })])),
    });
    renderAt(<ListingsPanel slug={SLUG} />, { route: `/events/${SLUG}` });
    const item = await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    expect(linesIn(item)[0]).toBe(
      '♿ Wheelchair-accessible seating: 2 companion seats can come with the wheelchair spaces, one per space',
    );
    expect(item.textContent?.match(/wheelchair accessible/gi)).toBeNull();
  });
});
