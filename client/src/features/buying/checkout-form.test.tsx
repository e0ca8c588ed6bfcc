// @vitest-environment happy-dom
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent, type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import type { Cart, CheckoutRequest } from '../../../../shared/schemas/commerce.js';
import { CheckoutForm } from './checkout-form.js';
import { validateCheckout, EMPTY_VALUES } from './checkout-validation.js';
import { apiError, json, mockFetch, type Handler } from '../../test/fetch-stub.js';
import { renderAt, storeGuestToken } from '../../test/render-page.js';
import { cart, CART_ID, order } from '../../test/buying-fixtures.js';
import { PAYMENT_FAILURE_TRACKING_FAILURE, PURCHASE_TRACKING_FAILURE } from './tracking.js';
import { discardEvents } from '../../lib/analytics.js';
import { sentEvents } from '../../test/events.js';

const NEXT_YEAR = String(new Date().getFullYear() + 1);

/** FF20 on the default cart (2 × $100): $160 of tickets, $28.80 service fee. */
const WITH_FF20 = cart({
  promoCode: 'FF20',
  totalPrice: { value: 188.8 },
  lineItems: [
    { key: 'Tickets (2 × $100)', value: '$200' },
    { key: 'Service Fee', value: '$28.80' },
    { key: 'Promo FF20', value: '-$40' },
    { key: 'Total', value: '$188.80' },
  ],
});

/** The cart as the server prices it: FF20 in any case, no code, or a 400 for any other code. */
const priceCart: Handler = (url) => {
  const code = url.searchParams.get('promoCode');
  if (code === null) return json(cart());
  return code.toUpperCase() === 'FF20'
    ? json(WITH_FF20)
    : apiError(400, 'invalid_promo_code', `“${code}” is not a valid promo code`, [
        { path: 'promoCode', message: 'This promo code is not valid' },
      ]);
};

/** The form with the checkout page's part: the cart it shows is the one last priced. */
function PricedForm({ onHoldEnded }: { onHoldEnded: () => void }) {
  const [priced, setPriced] = useState<Cart | null>(null);
  return <CheckoutForm cart={priced ?? cart()} onHoldEnded={onHoldEnded} onPriced={setPriced} />;
}

function setup(checkout: Handler = () => json(order(), 201), props: { onHoldEnded?: () => void } = {}) {
  const fetchMock = mockFetch({ 'POST /api/checkout': checkout, 'GET /api/cart/': priceCart });
  const user = userEvent.setup();
  const onHoldEnded = props.onHoldEnded ?? vi.fn();
  renderAt(<PricedForm onHoldEnded={onHoldEnded} />, { route: `/checkout/${CART_ID}` });
  const sent = () =>
    fetchMock.mock.calls
      .filter(([u]) => String(u) === '/api/checkout')
      .map(([, init]) => JSON.parse(String(init?.body)) as CheckoutRequest);
  return { fetchMock, user, sent, onHoldEnded };
}

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement | HTMLSelectElement;

async function fillAddress(user: UserEvent, overrides: Partial<Record<string, string>> = {}) {
  const values: Record<string, string> = {
    Email: 'fan@example.com',
    'Full name': 'Pat Fan',
    'Street address': '1 E 161st St',
    City: 'Bronx',
    'State or region': 'NY',
    'ZIP code': '10451',
    'Phone number': '+1 212 555 0100',
    ...overrides,
  };
  for (const [label, value] of Object.entries(values)) {
    if (value !== '') await user.type(field(label), value);
  }
}

async function fillCard(user: UserEvent, number = '4242 4242 4242 4242') {
  await user.type(field('Card number'), number);
  await user.selectOptions(field('Expiry month'), '12');
  await user.selectOptions(field('Expiry year'), NEXT_YEAR);
  await user.type(field('Security code (CVC)'), '123');
}

beforeEach(() => {
  storeGuestToken();
  window.dataLayer = [];
  delete window.ApplePaySession;
});

afterEach(() => {
  cleanup();
  discardEvents();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  delete window.ApplePaySession;
});

describe('checkout form validation', () => {
  it('shows a clear message on each invalid field, wires it with aria-describedby and focuses the first', async () => {
    const { user, fetchMock } = setup();
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));

    const email = field('Email');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    const describedBy = email.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain(
      'Enter an email address for your tickets',
    );
    expect(document.activeElement).toBe(email);

    const expected: Record<string, string> = {
      'Full name': 'Enter the cardholder’s full name',
      'Street address': 'Enter a street address',
      City: 'Enter a city',
      'State or region': 'Enter a state or region',
      'ZIP code': 'Enter a postal code',
      'Phone number': 'Enter a phone number with 7 to 15 digits',
      'Card number': 'Enter the card number',
      'Expiry month': 'Choose the expiry month',
      'Expiry year': 'Choose the expiry year',
      'Security code (CVC)': 'Enter the 3 or 4 digit security code',
    };
    for (const [label, message] of Object.entries(expected)) {
      const input = field(label);
      expect(input.getAttribute('aria-invalid'), label).toBe('true');
      const ids = input.getAttribute('aria-describedby')!.split(' ');
      expect(
        ids.map((id) => document.getElementById(id)?.textContent),
        label,
      ).toContain(message);
    }
    expect(field('Promo code (optional)').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByRole('alert').textContent).toMatch(/Please fix the \d+ highlighted fields/);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('checks a US ZIP code and clears a field’s message once it is edited', async () => {
    const { user } = setup();
    await fillAddress(user, { 'ZIP code': '1045' });
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    const zip = field('ZIP code');
    expect(zip.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Enter a 5-digit ZIP code')).toBeTruthy();
    expect(document.activeElement).toBe(zip);
    await user.type(zip, '1');
    expect(zip.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('Enter a 5-digit ZIP code')).toBeNull();
  });

  it('puts US first among the countries and sends the chosen code', async () => {
    setup();
    const options = Array.from((field('Country') as HTMLSelectElement).options).map((o) => o.value);
    expect(options[0]).toBe('US');
    expect(options).toContain('CA');
    expect((field('Country') as HTMLSelectElement).value).toBe('US');
  });

  it('refuses a card that has expired', () => {
    const now = new Date(2030, 5, 15);
    const values = {
      ...EMPTY_VALUES,
      email: 'a@b.co',
      name: 'Pat Fan',
      address1: '1 Main St',
      city: 'Bronx',
      state: 'NY',
      postalCode: '10451',
      phoneNumber: '2125550100',
      cardNumber: '4242424242424242',
      cvc: '123',
    };
    const expired = validateCheckout({ ...values, expMonth: '5', expYear: '2030' }, CART_ID, 'card', now);
    expect(expired.ok ? null : expired.errors.expMonth).toBe('This card has expired');
    expect(validateCheckout({ ...values, expMonth: '6', expYear: '2030' }, CART_ID, 'card', now).ok).toBe(true);
    expect(validateCheckout({ ...values, cardNumber: '', cvc: '' }, CART_ID, 'applepay', now).ok).toBe(true);
  });

  it('maps the server’s field errors onto the fields and focuses the first', async () => {
    const { user } = setup(() =>
      apiError(400, 'invalid_request', 'Some fields need attention', [
        { path: 'billingAddress.postalCode', message: 'That postal code does not match the city' },
        { path: 'billingAddress.phoneNumber', message: 'That phone number cannot be reached' },
      ]),
    );
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    await screen.findByText('That postal code does not match the city');
    const zip = field('ZIP code');
    expect(zip.getAttribute('aria-invalid')).toBe('true');
    expect(zip.getAttribute('aria-describedby')).toContain(
      screen.getByText('That postal code does not match the city').id,
    );
    expect(field('Phone number').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(zip));
  });

  it('shows an unknown promo code on the promo field, and pays nothing', async () => {
    const { user, sent } = setup();
    await fillAddress(user);
    await user.type(field('Promo code (optional)'), 'NOPE');
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $236' }));
    await screen.findByText('“NOPE” is not a valid promo code');
    expect(field('Promo code (optional)').getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(field('Promo code (optional)')));
    expect(sent()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Pay $236' })).toBeTruthy();
  });
});

describe('paying', () => {
  it('sends the request, pushes the purchase event and opens the order with its access code', async () => {
    const { user, sent } = setup();
    await fillAddress(user);
    await user.type(field('Promo code (optional)'), 'ff20');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Code FF20 applied: your total is now $188.80.')).toBeTruthy();
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $188.80' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/orders/ord_123?code=ACCESS-9'));
    expect(sent()).toEqual([
      {
        cartId: CART_ID,
        email: 'fan@example.com',
        billingAddress: {
          name: 'Pat Fan',
          address1: '1 E 161st St',
          city: 'Bronx',
          state: 'NY',
          countryCode: 'US',
          postalCode: '10451',
          phoneNumber: '+1 212 555 0100',
        },
        promoCode: 'ff20',
        expectedTotal: 188.8,
        payment: {
          method: 'card',
          cardNumber: '4242424242424242',
          expMonth: 12,
          expYear: Number(NEXT_YEAR),
          cvc: '123',
        },
      },
    ]);
    expect(window.dataLayer).toEqual([{ event: 'purchase', phet: 22420 }]);
  });

  it(
    'prices a code typed but not applied before paying: the first press shows ' + 'the new total, the second pays it',
    async () => {
      const { user, sent } = setup();
      await fillAddress(user);
      await user.type(field('Promo code (optional)'), 'FF20');
      await fillCard(user);
      await user.click(screen.getByRole('button', { name: 'Pay $236' }));
      expect(await screen.findByText('Code FF20 applied: your total is now $188.80. Check it, then pay.')).toBeTruthy();
      expect(sent()).toEqual([]);
      await user.click(screen.getByRole('button', { name: 'Pay $188.80' }));
      await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/orders/ord_123?code=ACCESS-9'));
      expect(sent().map((r) => [r.promoCode, r.expectedTotal])).toEqual([['FF20', 188.8]]);
    },
  );

  it('shows the server’s total again when the price changed under the shopper', async () => {
    const { user, sent } = setup(() =>
      apiError(409, 'price_changed', 'The total is $188.80, not the $236 shown; check it and pay again'),
    );
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Pay $236' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The total is $188.80, not the $236 shown');
    expect(sent()).toHaveLength(1);
    expect(window.dataLayer).toEqual([]);
  });

  it('retries a checkout whose answer was lost with the same Idempotency-Key, so the order is made once', async () => {
    let calls = 0;
    const { user, fetchMock } = setup(() =>
      ++calls === 1
        ? json({ error: { code: 'store_unavailable', message: 'Orders cannot be placed for a moment.' } }, 503)
        : json(order(), 201),
    );
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/orders/ord_123?code=ACCESS-9'));
    const keys = fetchMock.mock.calls
      .filter(([u]) => String(u) === '/api/checkout')
      .map(([, init]) => (init?.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(window.dataLayer).toHaveLength(1);
  });

  it('computes the purchase value (95 × total) when the answer carries no tracking payload', async () => {
    const { user } = setup(() => json({ ...order(), tracking: undefined, totalPrice: { value: 12.34 } }, 201));
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    await waitFor(() => expect(window.dataLayer).toEqual([{ event: 'purchase', phet: 1172.3 }]));
  });

  it('logs a purchase tracking failure and still opens the order', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    window.dataLayer = {
      push: () => {
        throw new Error('tag manager is down');
      },
    } as unknown as Record<string, unknown>[];
    const { user } = setup();
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/orders/ord_123?code=ACCESS-9'));
    expect(error).toHaveBeenCalledWith(PURCHASE_TRACKING_FAILURE, expect.any(Error));
  });

  it('shows a declined card, tracks card_failed and keeps what the shopper typed', async () => {
    const { fetchMock, user } = setup(() => apiError(402, 'payment_declined', 'Your card was declined.'));
    await fillAddress(user);
    await fillCard(user, '4000 0000 0000 0002');
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your card was declined.');
    expect(window.dataLayer).toEqual([{ event: 'card_failed', reason: 'payment_declined' }]);
    expect(sentEvents(fetchMock)).toEqual([
      expect.objectContaining({ name: 'checkout_failed', reason: 'card_failed:payment_declined' }),
    ]);
    expect(screen.getByTestId('location').textContent).toBe(`/checkout/${CART_ID}`);
    expect(field('Email').value).toBe('fan@example.com');
    expect(field('Card number').value).toBe('4000 0000 0000 0002');
    expect((screen.getByRole('button', { name: /^Pay \$/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('logs a failed payment-failure tracking and still shows the message', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    window.dataLayer = {
      push: () => {
        throw new Error('tag manager is down');
      },
    } as unknown as Record<string, unknown>[];
    const { user } = setup(() =>
      apiError(502, 'payment_error', 'The payment service is not answering. You were not charged.'),
    );
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('The payment service is not answering.');
    expect(error).toHaveBeenCalledWith(PAYMENT_FAILURE_TRACKING_FAILURE, expect.any(Error));
  });

  it('tells the page when the hold has ended', async () => {
    const onHoldEnded = vi.fn();
    const { user } = setup(() => apiError(410, 'hold_expired', 'The hold on these tickets has ended'), { onHoldEnded });
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay \$/ }));
    await waitFor(() => expect(onHoldEnded).toHaveBeenCalledTimes(1));
    expect(window.dataLayer).toEqual([]);
  });
});

describe('Apple Pay', () => {
  const session = (supports3: boolean, canPay: boolean) => ({
    supportsVersion: vi.fn((v: number) => supports3 && v === 3),
    canMakePayments: vi.fn(() => canPay),
  });

  it('is not offered without ApplePaySession', () => {
    setup();
    expect(screen.queryByRole('button', { name: /^Pay \$[\d,.]+ with Apple Pay$/ })).toBeNull();
  });

  it('is not offered without version 3 support', () => {
    window.ApplePaySession = session(false, true);
    setup();
    expect(screen.queryByRole('button', { name: /^Pay \$[\d,.]+ with Apple Pay$/ })).toBeNull();
  });

  it('is not offered when the device cannot make payments', () => {
    window.ApplePaySession = session(true, false);
    setup();
    expect(screen.queryByRole('button', { name: /^Pay \$[\d,.]+ with Apple Pay$/ })).toBeNull();
  });

  it('is not offered when the session throws', () => {
    window.ApplePaySession = {
      supportsVersion: () => {
        throw new Error('insecure context');
      },
      canMakePayments: () => true,
    };
    setup();
    expect(screen.queryByRole('button', { name: /^Pay \$[\d,.]+ with Apple Pay$/ })).toBeNull();
  });

  it(
    'is offered with version 3 and a device that can pay, and sends the Apple ' + 'Pay token without card fields',
    async () => {
      window.ApplePaySession = session(true, true);
      const { user, sent } = setup();
      await fillAddress(user);
      await user.click(screen.getByRole('button', { name: /^Pay \$[\d,.]+ with Apple Pay$/ }));
      await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/orders/ord_123?code=ACCESS-9'));
      expect(sent()[0]?.payment).toEqual({ method: 'applepay', token: 'applepay-success' });
      expect(window.dataLayer).toEqual([{ event: 'purchase', phet: 22420 }]);
    },
  );

  it('tracks applepay_failed when the Apple Pay payment fails', async () => {
    window.ApplePaySession = session(true, true);
    const { fetchMock, user } = setup(() => apiError(402, 'payment_declined', 'Apple Pay was declined.'));
    await fillAddress(user);
    await user.click(screen.getByRole('button', { name: /^Pay \$[\d,.]+ with Apple Pay$/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('Apple Pay was declined.');
    expect(window.dataLayer).toEqual([{ event: 'applepay_failed', reason: 'payment_declined' }]);
    expect(sentEvents(fetchMock).map((e) => [e.name, e.reason])).toEqual([
      ['checkout_failed', 'applepay_failed:payment_declined'],
    ]);
  });
});

describe('tickets the seller does not have yet (RULES 20.3)', () => {
  it('shows the notice and pays only once the shopper confirms having read it', async () => {
    const fetchMock = mockFetch({ 'POST /api/checkout': () => json(order(), 201), 'GET /api/cart/': priceCart });
    const user = userEvent.setup();
    renderAt(<CheckoutForm cart={cart({ ticketsHeld: false })} onHoldEnded={vi.fn()} />, {
      route: `/checkout/${CART_ID}`,
    });
    const sent = () =>
      fetchMock.mock.calls
        .filter(([u]) => String(u) === '/api/checkout')
        .map(([, init]) => JSON.parse(String(init?.body)) as CheckoutRequest);
    expect(screen.getByText(/has no contract to get them at a set price/)).toBeTruthy();
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay / }));
    const box = screen.getByRole('checkbox', { name: 'I have read that the seller does not have these tickets yet' });
    expect(await screen.findByText('Confirm you have read the notice to pay for these tickets')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(sent()).toEqual([]);

    await user.click(box);
    await user.click(screen.getByRole('button', { name: /^Pay / }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).toMatchObject({ notHeldNoticeRead: true });
  });

  it('asks nothing for tickets the seller holds, and sends no confirmation', async () => {
    const { user, sent } = setup();
    expect(screen.queryByRole('checkbox')).toBeNull();
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay / }));
    await waitFor(() => expect(sent()).toHaveLength(1));
    expect(sent()[0]).not.toHaveProperty('notHeldNoticeRead');
  });

  it('asks for the confirmation when the server refuses the payment for want of it', async () => {
    const { user, sent } = setup(() =>
      apiError(
        400,
        'notice_not_confirmed',
        'The seller does not have these tickets yet: confirm you have read that notice before paying',
      ),
    );
    await fillAddress(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /^Pay / }));
    const box = await screen.findByRole('checkbox', {
      name: 'I have read that the seller does not have these tickets yet',
    });
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(screen.getByText(/has no contract to get them at a set price/)).toBeTruthy();
    await user.click(box);
    await user.click(screen.getByRole('button', { name: /^Pay / }));
    await waitFor(() => expect(sent()).toHaveLength(2));
    expect(sent()[1]).toMatchObject({ notHeldNoticeRead: true });
  });
});
