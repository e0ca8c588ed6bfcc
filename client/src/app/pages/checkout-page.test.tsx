// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CheckoutPage } from './checkout-page.js';
import { apiError, type Handler, json, mockFetch } from '../../test/fetch-stub.js';
import { renderAt, setUpPageTests } from '../../test/render-page.js';
import { cart, CART_ID, EVENT, listingDetail } from '../../test/buying-fixtures.js';

function setup(routes: Record<string, Handler> = {}) {
  const fetchMock = mockFetch({
    [`GET /api/cart/${CART_ID}`]: () =>
      json(
        cart({
          lineItems: [
            { key: 'Tickets (2 × $100)', value: '$200' },
            { key: 'Service Fee', value: '$36' },
          ],
          totalPrice: { value: 236 },
        }),
      ),
    'GET /api/listings/11': () => json(listingDetail()),
    ...routes,
  });
  renderAt(<CheckoutPage />, { route: `/checkout/${CART_ID}`, path: 'checkout/:cartId' });
  return { fetchMock, user: userEvent.setup() };
}

setUpPageTests();

describe('checkout page', () => {
  it('lists the cart’s line items as the API gives them, the total and the hold countdown', async () => {
    setup();
    const summary = await screen.findByRole('region', { name: 'Your tickets' });
    const terms = within(summary)
      .getAllByRole('term')
      .map((t) => t.textContent);
    expect(terms).toEqual(['Tickets (2 × $100)', 'Service Fee', 'Total']);
    expect(within(summary).getByText('Service Fee').nextElementSibling?.textContent).toBe('$36');
    expect(within(summary).getByText('Total').nextElementSibling?.textContent).toBe('$236');
    expect(await within(summary).findByRole('link', { name: EVENT.name })).toBeTruthy();
    expect(within(summary).getByText(/2 tickets · Section 112, Row F/)).toBeTruthy();
    expect(within(summary).getByText(/eTicket · In hand by/)).toBeTruthy();
    expect(
      within(summary)
        .getByRole('link', { name: /Money Back Guarantee/ })
        .getAttribute('href'),
    ).toBe('/guarantee');
    expect(within(summary).getByText(/^\d\d:\d\d$/)).toBeTruthy();
  });

  it('shows the hold has ended when the server answers 410, with a link back to the event', async () => {
    const { user } = setup({
      'POST /api/checkout': () => apiError(410, 'hold_expired', 'The hold on these tickets has ended'),
    });
    await screen.findByRole('region', { name: 'Your tickets' });
    await screen.findByRole('link', { name: EVENT.name });
    const type = async (label: string, value: string) => user.type(screen.getByLabelText(label), value);
    await type('Email', 'fan@example.com');
    await type('Full name', 'Pat Fan');
    await type('Street address', '1 E 161st St');
    await type('City', 'Bronx');
    await type('State or region', 'NY');
    await type('ZIP code', '10451');
    await type('Phone number', '2125550100');
    await type('Card number', '4242424242424242');
    await user.selectOptions(screen.getByLabelText('Expiry month'), '12');
    await user.selectOptions(screen.getByLabelText('Expiry year'), String(new Date().getFullYear() + 1));
    await type('Security code (CVC)', '123');
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('Your hold has ended');
    expect(screen.getByRole('link', { name: 'Pick tickets again' }).getAttribute('href')).toBe(
      `${EVENT.url}?quantity=2`,
    );
    expect((screen.getByRole('button', { name: /^Pay \$/ }) as HTMLButtonElement).closest('fieldset')?.disabled).toBe(
      true,
    );
  });

  it('releases the hold and goes back to the event', async () => {
    const { fetchMock, user } = setup({ [`DELETE /api/cart/${CART_ID}`]: () => json(null, 204) });
    await screen.findByRole('link', { name: EVENT.name });
    await user.click(screen.getByRole('button', { name: 'Release these tickets and choose others' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe(`${EVENT.url}?quantity=2`));
    expect(
      fetchMock.mock.calls.some(([u, init]) => String(u) === `/api/cart/${CART_ID}` && init?.method === 'DELETE'),
    ).toBe(true);
  });

  it('says so when the cart cannot be found', async () => {
    setup({ [`GET /api/cart/${CART_ID}`]: () => apiError(404, 'not_found', 'No such cart') });
    expect((await screen.findByRole('alert')).textContent).toContain('We could not find these tickets');
  });
});
