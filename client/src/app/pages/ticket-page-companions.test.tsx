// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { TicketPage } from './ticket-page.js';
import { apiError, type Handler, json, mockFetch } from '../../test/fetch-stub.js';
import { renderAt, setUpPageTests } from '../../test/render-page.js';
import { cart, CART_ID, listing, listingDetail, listingsBody, SLUG } from '../../test/buying-fixtures.js';

/** RULES 10.16: the ticket page of an accessible listing asks for wheelchair spaces, then offers companion seats. */

function setup(createCart: Handler, overrides = { accessible: true, companionSeats: 2 }, quantity = 2) {
  const fetchMock = mockFetch({
    'GET /api/listings/11': () => json(listingDetail({ splits: [1, 2, 4], ...overrides })),
    [`GET /api/events/${SLUG}/listings`]: () => json(listingsBody([listing()])),
    'POST /api/cart': createCart,
  });
  renderAt(<TicketPage />, { route: `/tickets/${SLUG}?listing=11&quantity=${quantity}`, path: 'tickets/*' });
  return { fetchMock, user: userEvent.setup() };
}
const posted = (fetchMock: ReturnType<typeof setup>['fetchMock']) =>
  fetchMock.mock.calls
    .filter(([u, init]) => String(u) === '/api/cart' && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

setUpPageTests();

describe('companion seats on the ticket page', () => {
  it('asks for wheelchair spaces, offers one companion seat per space, and holds both', async () => {
    const { fetchMock, user } = setup(() => json(cart({ quantitySelected: 3, companions: 1 }), 201));
    const spaces = (await screen.findByRole('combobox', { name: 'Number of wheelchair spaces' })) as HTMLSelectElement;
    expect([...spaces.options].map((o) => o.text)).toEqual([
      '1 wheelchair space',
      '2 wheelchair spaces',
      '4 wheelchair spaces',
    ]);
    const companions = screen.getByRole('combobox', { name: 'Add a companion seat' }) as HTMLSelectElement;
    // Two spaces allow two companion seats, and two are left.
    expect([...companions.options].map((o) => o.text)).toEqual([
      'No companion seat',
      '1 companion seat',
      '2 companion seats',
    ]);
    expect(companions.value).toBe('0');
    const hint = document.getElementById(companions.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toContain('at most one per space, at $118 like the space, fees included. 2 are left.');
    expect(screen.getByText(/^Total for 2 tickets/).textContent).toContain('$236');

    // (The browser test chooses it with the keyboard: happy-dom's select does not answer arrow keys.)
    await user.selectOptions(companions, '1');
    expect(companions.value).toBe('1');
    expect(screen.getByText(/^Total for 3 tickets/).textContent).toBe(
      'Total for 3 tickets (2 wheelchair spaces and 1 companion): $354Fees included. Add a promo code at checkout.',
    );
    screen.getByRole('button', { name: 'Continue to checkout' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`/checkout/${CART_ID}`));
    expect(posted(fetchMock)).toEqual([{ listingId: 11, quantity: 2, companions: 1 }]);
  });

  it('offers no more companion seats than spaces chosen, nor more than are left', async () => {
    const { user } = setup(() => json(cart(), 201), { accessible: true, companionSeats: 3 }, 1);
    const companions = (await screen.findByRole('combobox', { name: 'Add a companion seat' })) as HTMLSelectElement;
    expect([...companions.options].map((o) => o.value)).toEqual(['0', '1']);
    await user.selectOptions(companions, '1');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Number of wheelchair spaces' }), '4');
    expect([...companions.options].map((o) => o.value)).toEqual(['0', '1', '2', '3']);
    expect(companions.value).toBe('1');
  });

  it('is not offered by a listing without companion seats, nor by one that is not accessible', async () => {
    setup(() => json(cart(), 201), { accessible: true, companionSeats: 0 });
    expect(await screen.findByRole('combobox', { name: 'Number of wheelchair spaces' })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Add a companion seat' })).toBeNull();
  });

  it('shows the server’s sentence when the companion seats were just taken, and keeps the form', async () => {
    const { user } = setup(() =>
      apiError(409, 'not_enough_companion_seats', 'Only 1 companion seat left in this listing'),
    );
    const companions = (await screen.findByRole('combobox', { name: 'Add a companion seat' })) as HTMLSelectElement;
    await user.selectOptions(companions, '2');
    await user.click(screen.getByRole('button', { name: 'Continue to checkout' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Only 1 companion seat left in this listing');
    expect(screen.getByRole('button', { name: 'Continue to checkout' })).toBeTruthy();
  });

  it('offers no more companion seats than the shopper’s limit leaves beside the spaces (RULES 8.1)', async () => {
    mockFetch({
      'GET /api/listings/11': () => json(listingDetail({ splits: [1, 2, 4], accessible: true, companionSeats: 4 })),
      'GET /api/purchase-limits': () =>
        json({
          eventId: 501,
          perShopper: { limit: 8, used: 5 },
          perNetwork: { limit: 32, used: 5 },
          left: 3,
          cartsLeft: 2,
        }),
    });
    renderAt(<TicketPage />, { route: `/tickets/${SLUG}?listing=11&quantity=2`, path: 'tickets/*' });
    const companions = (await screen.findByRole('combobox', { name: 'Add a companion seat' })) as HTMLSelectElement;
    await waitFor(() =>
      expect([...companions.options].map((o) => o.text)).toEqual(['No companion seat', '1 companion seat']),
    );
    const hint = document.getElementById(companions.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toContain('Your limit for this event leaves room for 1 with these spaces.');
  });
});
