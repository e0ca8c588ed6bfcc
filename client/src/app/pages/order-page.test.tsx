// @vitest-environment happy-dom
import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OrderPage } from './order-page.js';
import type { Order } from '../../../../shared/schemas/commerce.js';
import { json, mockFetch, urlsOf } from '../../test/fetch-stub.js';
import { renderAt, storeGuestToken } from '../../test/render-page.js';
import { order } from '../../test/buying-fixtures.js';

function confirmed(): Order {
  const base = order();
  return {
    ...base,
    status: 'confirmed',
    detail: base.detail.map((e) => (e.type === 'row' && e.title === 'Order Status' ? { ...e, value: 'Confirmed' } : e)),
    timeline: [
      ...base.timeline,
      { status: 'confirmed', at: '2026-12-01T15:00:07.000Z', note: 'The seller confirmed your tickets' },
    ],
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
    for (const title of ['Important Notes', 'eTicket', 'Method'])
      expect(screen.getByText(title, { selector: 'dt' })).toBeTruthy();

    const history = within(screen.getByRole('region', { name: 'Order history' })).getAllByRole('listitem');
    expect(history.map((li) => li.querySelector('strong')?.textContent)).toEqual([
      'Reserved',
      'Awaiting Seller Confirmation',
      'Confirmed',
    ]);
    expect(history[2]?.textContent).toContain('The seller confirmed your tickets');
    expect(
      within(screen.getByRole('region', { name: 'Payment' })).getByText('Service Fee').nextElementSibling?.textContent,
    ).toBe('$36');
  });

  it(
    'lists each ticket with its seat and state, states the in-hand rule, and ' + 'offers the PDF only once it is ready',
    async () => {
      mockFetch({ 'GET /api/orders/ord_123': () => json(order()) });
      renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
      const region = await screen.findByRole('region', { name: 'Your tickets' });
      const items = within(region).getAllByRole('listitem');
      expect(items.map((li) => li.querySelector('strong')?.textContent)).toEqual([
        'Ticket 1: Section 112, Row F, Seat 7',
        'Ticket 2: Section 112, Row F, Seat 8',
      ]);
      expect(items[0]?.textContent).toContain('Waiting for the seller to confirm; ready by Dec 20, 2026');
      expect(within(region).getByText(/never before the day you ordered/)).toBeTruthy();
      expect(within(region).queryByRole('button')).toBeNull();
    },
  );

  it('downloads the eTickets PDF with the order’s access', async () => {
    const ready = confirmed();
    const downloadable: Order = {
      ...ready,
      tickets: ready.tickets.map((t) => ({ ...t, state: 'ready', stateText: 'Ready: download your eTickets below' })),
      delivery: { ...ready.delivery!, downloadable: true },
    };
    const fetchMock = mockFetch({
      'GET /api/orders/ord_123/tickets.pdf': () =>
        new Response(new Blob(['%PDF-1.7'], { type: 'application/pdf' }), { status: 200 }),
      'GET /api/orders/ord_123': () => json(downloadable),
    });
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:tickets');
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicks: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    const button = await screen.findByRole('button', { name: 'Download eTickets (PDF, 2 pages)' });
    await act(async () => button.click());
    await vi.waitFor(() => expect(clicks).toEqual(['tickets-ord_123.pdf']));
    expect(urlsOf(fetchMock, '/api/orders/ord_123/tickets.pdf')[0]?.searchParams.get('code')).toBe('ACCESS-9');
    expect(created).toHaveBeenCalledTimes(1);
    for (const spy of [click, created, revoked]) spy.mockRestore();
  });

  it('says why the eTickets cannot be downloaded', async () => {
    const ready = confirmed();
    mockFetch({
      'GET /api/orders/ord_123/tickets.pdf': () =>
        json(
          { error: { code: 'tickets_not_ready', message: 'Your eTickets can be downloaded from Dec 20, 2026.' } },
          409,
        ),
      'GET /api/orders/ord_123': () => json({ ...ready, delivery: { ...ready.delivery!, downloadable: true } }),
    });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    await act(async () => (await screen.findByRole('button', { name: /Download eTickets/ })).click());
    expect((await screen.findByRole('alert')).textContent).toBe('Your eTickets can be downloaded from Dec 20, 2026.');
  });

  it('refetches every 2 s while the seller has not confirmed, and stops once the status changes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answers = 0;
    const fetchMock = mockFetch({ 'GET /api/orders/ord_123': () => json(++answers < 3 ? order() : confirmed()) });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    const statusRow = async () =>
      within(await screen.findByRole('row', { name: /^Order Status/ })).getByRole('cell').textContent;
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
