// @vitest-environment happy-dom
import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OrderPage } from '../../app/pages/order-page.js';
import type { Order } from '../../../../schemas/commerce.js';
import { json, mockFetch, order, renderAt, storeGuestToken, urlsOf } from './test-utils.js';

function confirmed(): Order {
  const base = order();
  return {
    ...base,
    status: 'confirmed',
    detail: base.detail.map((e) => (e.type === 'row' && e.title === 'Order Status' ? { ...e, value: 'Confirmed' } : e)),
    timeline: [...base.timeline, { status: 'confirmed', at: '2026-12-01T15:00:07.000Z', note: 'The seller confirmed your tickets' }],
  };
}

beforeEach(storeGuestToken);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
});

describe('order page', () => {
  it('renders the detail entries and the timeline, newest last, fetching with the access code', async () => {
    const fetchMock = mockFetch({ 'GET /api/orders/ord_123': () => json(confirmed()) });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your order' })).toBeTruthy();
    expect(urlsOf(fetchMock, '/api/orders/ord_123')[0]?.searchParams.get('code')).toBe('ACCESS-9');

    expect(screen.getByText('JAN')).toBeTruthy();
    expect(screen.getByText('07:30 PM')).toBeTruthy();
    const header = screen.getByRole('heading', { name: 'Event Location' });
    expect(header.nextElementSibling?.textContent).toBe('Yankee Stadium, Bronx, NY');
    for (const [title, value] of [
      ['Section', '112'],
      ['Row', 'F'],
      ['Order Status', 'Confirmed'],
      ['Order Date', 'Dec 1, 2026'],
      ['Order Id', 'ord_123'],
    ]) {
      const row = screen.getByRole('row', { name: new RegExp(`^${title} `) });
      expect(within(row).getByRole('rowheader').textContent).toBe(title);
      expect(within(row).getByRole('cell').textContent).toBe(value);
    }
    for (const title of ['Important Notes', 'eTicket', 'Method']) expect(screen.getByText(title, { selector: 'dt' })).toBeTruthy();

    const history = within(screen.getByRole('region', { name: 'Order history' })).getAllByRole('listitem');
    expect(history.map((li) => li.querySelector('strong')?.textContent)).toEqual(['Reserved', 'Awaiting Seller Confirmation', 'Confirmed']);
    expect(history[2]?.textContent).toContain('The seller confirmed your tickets');
    expect(within(screen.getByRole('region', { name: 'Payment' })).getByText('Service Fee').nextElementSibling?.textContent).toBe('$36');
  });

  it('refetches every 2 s while the seller has not confirmed, and stops once the status changes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answers = 0;
    const fetchMock = mockFetch({ 'GET /api/orders/ord_123': () => json(++answers < 3 ? order() : confirmed()) });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    const statusRow = async () => within(await screen.findByRole('row', { name: /^Order Status/ })).getByRole('cell').textContent;
    expect(await statusRow()).toBe('Awaiting Seller Confirmation');
    expect(screen.getByText(/waiting for the seller/).closest('[role="status"]')).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(urlsOf(fetchMock, '/api/orders').length).toBe(2);
    expect(await statusRow()).toBe('Awaiting Seller Confirmation');
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(urlsOf(fetchMock, '/api/orders').length).toBe(3);
    expect(await statusRow()).toBe('Confirmed');
    expect(screen.getByText(/Your order is confirmed/).closest('[role="status"]')).not.toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(urlsOf(fetchMock, '/api/orders').length).toBe(3);
  });

  it('says when the order cannot be found', async () => {
    mockFetch({ 'GET /api/orders/': () => json({ error: { code: 'not_found', message: 'No such order' } }, 404) });
    renderAt(<OrderPage />, { route: '/orders/nope', path: 'orders/:id' });
    expect((await screen.findByRole('alert')).textContent).toContain('We could not find this order');
  });
});
