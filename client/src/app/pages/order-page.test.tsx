// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OrderPage } from './order-page.js';
import type { Order } from '../../../../shared/schemas/commerce.js';
import { apiError, json, mockFetch, urlsOf } from '../../test/fetch-stub.js';
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
    // RULES 20.4: every order links to the guarantee.
    expect(screen.getByRole('link', { name: /covered by our 100% Money Back Guarantee/ }).getAttribute('href')).toBe(
      '/guarantee',
    );

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

  it('lists the refunds oldest first, each with its amount, what it is for and its state in words', async () => {
    mockFetch({
      'GET /api/orders/ord_123': () =>
        json({
          ...confirmed(),
          refunds: [
            {
              amount: { value: 1234.5 },
              status: 'pending',
              reason: 'The event was cancelled',
              requestedAt: '2026-12-03T12:00:00.000Z',
              refundedAt: null,
            },
            {
              amount: { value: 20 },
              status: 'refunded',
              reason: 'Goodwill',
              requestedAt: '2026-11-27T12:00:00.000Z',
              refundedAt: '2026-11-27T12:00:05.000Z',
            },
            {
              amount: { value: 5 },
              status: 'failed',
              reason: 'Refund',
              requestedAt: '2026-12-05T12:00:00.000Z',
              refundedAt: null,
            },
          ],
        }),
    });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    const region = await screen.findByRole('region', { name: 'Refunds' });
    const table = within(region).getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Amount', 'For', 'State']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => [...tr.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['$20', 'Goodwill', 'Refunded on Nov 27, 2026'],
      ['$1,234.50', 'The event was cancelled', 'On its way since Dec 3, 2026'],
      ['$5', 'Refund', 'Delayed: our team has been told'],
    ]);
  });

  it('shows no refunds and no refund offer on an order that has neither', async () => {
    mockFetch({ 'GET /api/orders/ord_123': () => json(confirmed()) });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    await screen.findByRole('region', { name: 'Your tickets' });
    expect(screen.queryByRole('region', { name: 'Refunds' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Your event has moved' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Ask for a full refund' })).toBeNull();
  });

  describe('the refund a moved event offers (RULES 19.2)', () => {
    const UNTIL = '2026-12-31T12:00:00.000Z';
    const offered = (): Order => ({ ...confirmed(), refundOffer: { until: UNTIL, amount: { value: 70.72 } } });
    const calledOff = (): Order => ({
      ...confirmed(),
      status: 'cancelled',
      refundOffer: null,
      refunds: [
        {
          amount: { value: 70.72 },
          status: 'pending',
          reason: 'You asked for a refund after the event moved',
          requestedAt: '2026-12-02T12:00:00.000Z',
          refundedAt: null,
        },
      ],
    });

    it('says what it offers and until when, and asks in the page before anything is sent', async () => {
      const fetchMock = mockFetch({
        'POST /api/orders/ord_123/refund': () => json(calledOff(), 202),
        'GET /api/orders/ord_123': () => json(offered()),
      });
      renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
      const notice = await screen.findByRole('region', { name: 'Your event has moved' });
      expect(notice.textContent).toContain(
        'Your tickets stay valid. If you can’t go, you can ask for a full refund of $70.72 until Dec 31, 2026',
      );
      expect(
        within(notice)
          .getByText(/Dec 31, 2026/, { selector: 'time' })
          .getAttribute('datetime'),
      ).toBe(UNTIL);

      const ask = within(notice).getByRole('button', { name: 'Ask for a full refund' });
      await act(async () => ask.click());
      const question = within(notice).getByRole('group', { name: /^Ask for a full refund of \$70\.72\?/ });
      const yes = within(question).getByRole('button', { name: 'Yes, refund my order' });
      expect(document.activeElement).toBe(yes);

      // Escape steps back to the first button, as "Keep my tickets" does; nothing is sent.
      fireEvent.keyDown(yes, { key: 'Escape' });
      expect(within(notice).queryByRole('group')).toBeNull();
      await vi.waitFor(() =>
        expect(document.activeElement).toBe(within(notice).getByRole('button', { name: 'Ask for a full refund' })),
      );
      await act(async () => within(notice).getByRole('button', { name: 'Ask for a full refund' }).click());
      await act(async () => within(notice).getByRole('button', { name: 'Keep my tickets' }).click());
      expect(within(notice).queryByRole('group')).toBeNull();
      expect(urlsOf(fetchMock, '/api/orders/ord_123/refund')).toEqual([]);
    });

    it('asks with the access code, says so in a live region and shows the order as it now stands', async () => {
      const fetchMock = mockFetch({
        'POST /api/orders/ord_123/refund': () => json(calledOff(), 202),
        'GET /api/orders/ord_123': () => json(offered()),
      });
      renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
      await act(async () => (await screen.findByRole('button', { name: 'Ask for a full refund' })).click());
      await act(async () => screen.getByRole('button', { name: 'Yes, refund my order' }).click());

      const outcome = await screen.findByText(/^Your order is called off/);
      expect(outcome.textContent).toBe(
        'Your order is called off and your full refund of $70.72 is on its way to your original payment method.',
      );
      expect(outcome.closest('[aria-live="polite"]')).not.toBeNull();
      await vi.waitFor(() => expect(document.activeElement).toBe(outcome.closest('[role="status"]')));
      const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
      expect(posts).toHaveLength(1);
      expect(new URL(String(posts[0]![0]), 'http://localhost').pathname).toBe('/api/orders/ord_123/refund');
      expect(urlsOf(fetchMock, '/api/orders/ord_123/refund')[0]?.searchParams.get('code')).toBe('ACCESS-9');

      // The answer is the order now: called off, its refund on its way, nothing more to ask for.
      expect(screen.queryByRole('region', { name: 'Your event has moved' })).toBeNull();
      expect(screen.getByText(/This order was cancelled/).closest('[role="status"]')).not.toBeNull();
      const refunds = within(screen.getByRole('region', { name: 'Refunds' })).getAllByRole('row');
      expect(refunds[1]?.textContent).toBe(
        '$70.72You asked for a refund after the event movedOn its way since Dec 2, 2026',
      );
    });

    it('asks with the guest’s token when the page has no code', async () => {
      const fetchMock = mockFetch({
        'POST /api/orders/ord_123/refund': () => json(calledOff(), 202),
        'GET /api/orders/ord_123': () => json(offered()),
      });
      renderAt(<OrderPage />, { route: '/orders/ord_123', path: 'orders/:id' });
      await act(async () => (await screen.findByRole('button', { name: 'Ask for a full refund' })).click());
      await act(async () => screen.getByRole('button', { name: 'Yes, refund my order' }).click());
      await screen.findByText(/^Your order is called off/);
      const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST')!;
      expect(new URL(String(url), 'http://localhost').search).toBe('');
      expect((init?.headers as Record<string, string>).Authorization).toMatch(/^Bearer .+\..+\..+$/);
    });

    it('says in words why the refund was refused, and reads the order again', async () => {
      let reads = 0;
      const fetchMock = mockFetch({
        'POST /api/orders/ord_123/refund': () =>
          apiError(409, 'refund_in_progress', 'This order is already being refunded in full'),
        'GET /api/orders/ord_123': () => json(++reads === 1 ? offered() : calledOff()),
      });
      renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
      await act(async () => (await screen.findByRole('button', { name: 'Ask for a full refund' })).click());
      await act(async () => screen.getByRole('button', { name: 'Yes, refund my order' }).click());
      const refusal = await screen.findByText('This order is already being refunded in full');
      expect(refusal.closest('[aria-live="polite"]')).not.toBeNull();
      await vi.waitFor(() => expect(screen.queryByRole('region', { name: 'Your event has moved' })).toBeNull());
      expect(urlsOf(fetchMock, '/api/orders/ord_123').filter((u) => !u.pathname.endsWith('/refund')).length).toBe(2);
      // The refusal stays once the offer has gone.
      expect(screen.getByText('This order is already being refunded in full')).toBeTruthy();
    });

    it('asks again in words when the server could not answer', async () => {
      mockFetch({
        'POST /api/orders/ord_123/refund': () => apiError(503, 'unavailable', 'upstream timeout'),
        'GET /api/orders/ord_123': () => json(offered()),
      });
      renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
      await act(async () => (await screen.findByRole('button', { name: 'Ask for a full refund' })).click());
      await act(async () => screen.getByRole('button', { name: 'Yes, refund my order' }).click());
      expect((await screen.findByText(/^We could not ask for your refund/)).textContent).toBe(
        'We could not ask for your refund. Please try again.',
      );
      expect(screen.getByRole('button', { name: 'Ask for a full refund' })).toBeTruthy();
    });
  });

  it('follows a refund on its way until it is made, then stops', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const refund = {
      amount: { value: 236 },
      reason: 'The event was cancelled',
      requestedAt: '2026-12-02T12:00:00.000Z',
    };
    let answers = 0;
    const fetchMock = mockFetch({
      'GET /api/orders/ord_123': () =>
        json({
          ...confirmed(),
          status: ++answers < 2 ? 'cancelled' : 'refunded',
          refunds: [
            answers < 2
              ? { ...refund, status: 'pending', refundedAt: null }
              : { ...refund, status: 'refunded', refundedAt: '2026-12-02T12:00:03.000Z' },
          ],
        }),
    });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    const region = await screen.findByRole('region', { name: 'Refunds' });
    expect(within(region).getByText('On its way since Dec 2, 2026')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(await within(region).findByText('Refunded on Dec 2, 2026')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(urlsOf(fetchMock, '/api/orders').length).toBe(2);
  });

  it('says when the buyer’s personal details were erased (RULES 21.3), and not while they are kept', async () => {
    mockFetch({ 'GET /api/orders/ord_123': () => json({ ...confirmed(), erasedAt: '2026-12-03T09:30:00.000Z' }) });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    const note = await screen.findByText(/^Personal details erased on /);
    expect(note.querySelector('time')?.getAttribute('datetime')).toBe('2026-12-03T09:30:00.000Z');
    cleanup();
    mockFetch({ 'GET /api/orders/ord_123': () => json(confirmed()) });
    renderAt(<OrderPage />, { route: '/orders/ord_123?code=ACCESS-9', path: 'orders/:id' });
    await screen.findByRole('heading', { level: 1, name: 'Your order' });
    expect(screen.queryByText(/Personal details erased/)).toBeNull();
  });
});
