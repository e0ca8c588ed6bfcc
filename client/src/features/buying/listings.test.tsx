// @vitest-environment happy-dom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListingsPanel } from './listings.js';
import { seatLabel } from './money.js';
import { keepInputBeforeScript } from '../../lib/input-before-script.js';
import { json, mockFetch, urlsOf } from '../../test/fetch-stub.js';
import { renderAt } from '../../test/render-page.js';
import { listing, listingsBody, SLUG } from '../../test/buying-fixtures.js';

const CHEAP = listing({ id: 11, section: '112', row: 'F', pricePerTicket: 100, allInPricePerTicket: 118 });
const SHIPPED = listing({
  id: 12,
  section: '305',
  row: 'B',
  pricePerTicket: 50,
  allInPricePerTicket: 59,
  deliveryMethod: 'physical_mail',
  sellerNotes: '',
});

function setup(answer: (url: URL) => unknown = () => listingsBody([CHEAP, SHIPPED]), route = `/events/${SLUG}`) {
  const fetchMock = mockFetch({ [`GET /api/events/${SLUG}/listings`]: (url) => json(answer(url)) });
  const user = userEvent.setup();
  const view = renderAt(<ListingsPanel slug={SLUG} />, { route });
  return { fetchMock, user, view };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('listings', () => {
  it('shows each listing with the all-in price first, its details and a Select link to the ticket page', async () => {
    setup();
    const item = await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    expect(within(item).getByText('$118', { selector: 'strong' })).toBeTruthy();
    expect(within(item).getByText('each, fees included')).toBeTruthy();
    expect(within(item).getByText(/eTicket · In hand by Dec 20, 2026/)).toBeTruthy();
    expect(within(item).getByText('Aisle seats')).toBeTruthy();
    const select = within(item).getByRole('link', { name: /^Select Section 112, Row F, 2 tickets at \$118 each/ });
    expect(select.getAttribute('href')).toBe(`/tickets/${SLUG}?listing=11&quantity=2`);
    // The all-in price comes before the fee disclosure in reading order.
    const text = item.textContent ?? '';
    expect(text.indexOf('$118')).toBeLessThan(text.indexOf('See fees'));
  });

  it('says it is finding tickets until the rows are in, never that there are none', async () => {
    const said: string[] = [];
    const observer = new MutationObserver(() => {
      const status = document.querySelector('.listings__status');
      if (status?.textContent) said.push(status.textContent);
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    setup();
    await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    observer.disconnect();
    expect(said.some((text) => text.startsWith('Finding tickets'))).toBe(true);
    expect(said.filter((text) => text.startsWith('No tickets'))).toEqual([]);
    expect(said.at(-1)).toBe('2 listings for 2 tickets');
  });

  it('discloses the fees in one click: price, service fee rate and delivery fee', async () => {
    const { user } = setup();
    const item = await screen.findByRole('listitem', { name: 'Section 305, Row B' });
    const toggle = within(item).getByRole('button', { name: 'See fees' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const panel = document.getElementById(toggle.getAttribute('aria-controls')!)!;
    expect(panel.closest('[hidden]')).not.toBeNull();

    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(panel.closest('[hidden]')).toBeNull();
    const fees = within(panel);
    expect(fees.getByText('Ticket price').nextElementSibling?.textContent).toBe('$50');
    expect(fees.getByText('Service fee (18%)').nextElementSibling?.textContent).toBe('$9');
    expect(fees.getByText('All-in per ticket').nextElementSibling?.textContent).toBe('$59');
    expect(fees.getByText('Delivery (Shipped by mail)').nextElementSibling?.textContent).toBe(
      '$2.50 shipping per ticket, added at checkout',
    );
    expect(within(item).getByText('+ $2.50 shipping')).toBeTruthy();
    expect(within(item).getByRole('button', { name: 'Hide fees' })).toBe(toggle);
  });

  it('shows free delivery for digital tickets', async () => {
    const { user } = setup();
    const item = await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    await user.click(within(item).getByRole('button', { name: 'See fees' }));
    expect(within(item).getByText('Delivery (eTicket)').nextElementSibling?.textContent).toBe('Free');
  });

  it('refetches with the chosen quantity and keeps it in the Select links', async () => {
    const { fetchMock, user } = setup();
    await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    expect(urlsOf(fetchMock, `/api/events/${SLUG}/listings`).some((u) => u.searchParams.get('quantity') === '2')).toBe(
      true,
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Tickets' }), '4');
    await waitFor(() =>
      expect(
        urlsOf(fetchMock, `/api/events/${SLUG}/listings`).some((u) => u.searchParams.get('quantity') === '4'),
      ).toBe(true),
    );
    await waitFor(() =>
      expect(screen.getByRole('link', { name: /^Select Section 112, Row F, 4 tickets/ }).getAttribute('href')).toBe(
        `/tickets/${SLUG}?listing=11&quantity=4`,
      ),
    );
    expect(screen.getByTestId('location').textContent).toContain('quantity=4');
  });

  it('keeps the last listings in view but not to be chosen until the new quantity’s answer comes', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const fetchMock = mockFetch({
      [`GET /api/events/${SLUG}/listings`]: async (url) => {
        if (url.searchParams.get('quantity') === '4') await held;
        return json(listingsBody([CHEAP, SHIPPED]));
      },
    });
    const user = userEvent.setup();
    renderAt(<ListingsPanel slug={SLUG} />, { route: `/events/${SLUG}` });
    await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Tickets' }), '4');
    await waitFor(() =>
      expect(
        urlsOf(fetchMock, `/api/events/${SLUG}/listings`).some((u) => u.searchParams.get('quantity') === '4'),
      ).toBe(true),
    );
    expect(document.querySelector('.listing-list')?.hasAttribute('inert')).toBe(true);
    release();
    await waitFor(() => expect(document.querySelector('.listing-list')?.hasAttribute('inert')).toBe(false));
    expect(screen.getByRole('link', { name: /^Select Section 112, Row F, 4 tickets/ })).toBeTruthy();
  });

  it('offers quantities 1 to 8, what one shopper may buy of an event, and says so beside the picker', async () => {
    setup();
    const picker = await screen.findByRole('combobox', { name: 'Tickets' });
    const options = within(picker).getAllByRole('option');
    expect(options.map((o) => (o as HTMLOptionElement).value)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(document.getElementById(picker.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Up to 8 tickets per shopper for an event',
    );
  });

  it('labels the rows and the count of a list being refreshed with their own answer, dimmed and busy', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: async (url) => {
        const quantity = url.searchParams.get('quantity');
        if (quantity === '4') await held;
        // The answer names the filter it was made for, as the server's does.
        return json({
          ...listingsBody(quantity === '4' ? [CHEAP] : [CHEAP, SHIPPED]),
          query: { sort: 'price_asc', ...(quantity ? { quantity: Number(quantity) } : {}) },
        });
      },
    });
    const said: string[] = [];
    const observer = new MutationObserver(() => {
      const status = document.querySelector('.listings__status');
      if (status?.textContent) said.push(status.textContent);
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    const user = userEvent.setup();
    renderAt(<ListingsPanel slug={SLUG} />, { route: `/events/${SLUG}` });
    await screen.findByText('2 listings for 2 tickets');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Tickets' }), '4');
    await screen.findByText('Finding tickets for 4 tickets…');
    const list = document.querySelector('.listing-list')!;
    expect(list.hasAttribute('inert')).toBe(true);
    expect(list.getAttribute('aria-busy')).toBe('true');
    expect(document.querySelector('.listings__status')?.getAttribute('aria-busy')).toBe('true');
    // The old rows still name the quantity they were listed for, never the one asked for since.
    const old = list.querySelectorAll('a[aria-label^="Select"]');
    expect(old.length).toBe(2);
    for (const link of old) expect(link.getAttribute('aria-label')).toMatch(/, 2 tickets at/);
    release();
    await screen.findByText('1 listing for 4 tickets');
    observer.disconnect();
    expect(list.hasAttribute('inert')).toBe(false);
    expect(screen.getByRole('link', { name: /^Select Section 112, Row F, 4 tickets/ })).toBeTruthy();
    // No count ever put the old rows under the new quantity.
    expect(said.filter((text) => text.includes('2 listings for 4'))).toEqual([]);
  });

  it('says at which quantity the cheapest listing sells when not at the one chosen, and switches to it', async () => {
    // The cheapest ($118) sells 1 or 3 tickets; at 2 only the dearer listing is on offer.
    const single = listing({ ...CHEAP, splits: [1, 3], quantityAvailable: 3 });
    const dear = listing({ id: 13, section: '201', row: 'A', pricePerTicket: 150, allInPricePerTicket: 177 });
    const { user } = setup((url) => listingsBody(url.searchParams.get('quantity') === '2' ? [dear] : [single, dear]));
    await screen.findByRole('listitem', { name: 'Section 201, Row A' });
    await waitFor(() =>
      expect(document.querySelector('.listings__offer')?.textContent).toBe('From $118 for 1 ticket. Show 1 ticket'),
    );
    const offer = document.querySelector<HTMLElement>('.listings__offer')!;
    await user.click(within(offer).getByRole('button', { name: 'Show 1 ticket' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toContain('quantity=1'));
    await screen.findByRole('link', { name: /^Select Section 112, Row F, 1 ticket at \$118/ });
    expect(document.querySelector('.listings__offer')).toBeNull();
  });

  it('applies a quantity and sort chosen before its script ran, as the page held them before hydration', async () => {
    // The server's page as the shopper left it: 3 tickets and the section sort chosen, then the script starts.
    const served = document.createElement('div');
    served.innerHTML =
      '<select data-keep-input="listings-quantity"><option value="2" selected>2</option><option value="3">3</option>' +
      '</select><select data-keep-input="listings-sort"><option value="price_asc" selected>low</option>' +
      '<option value="section">section</option></select>';
    served.querySelector<HTMLSelectElement>('[data-keep-input="listings-quantity"]')!.value = '3';
    served.querySelector<HTMLSelectElement>('[data-keep-input="listings-sort"]')!.value = 'section';
    keepInputBeforeScript(served);
    const { fetchMock } = setup();
    await waitFor(() => expect(screen.getByTestId('location').textContent).toContain('quantity=3'));
    expect(screen.getByTestId('location').textContent).toContain('sort=section');
    expect((screen.getByRole('combobox', { name: 'Tickets' }) as HTMLSelectElement).value).toBe('3');
    await waitFor(() =>
      expect(
        urlsOf(fetchMock, `/api/events/${SLUG}/listings`).some(
          (u) => u.searchParams.get('quantity') === '3' && u.searchParams.get('sort') === 'section',
        ),
      ).toBe(true),
    );
  });

  it('says nothing more of the cheapest listing when it sells the quantity chosen', async () => {
    setup();
    await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    expect(document.querySelector('.listings__offer')).toBeNull();
  });

  it('refetches with the chosen sort', async () => {
    const { fetchMock, user } = setup();
    await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    expect(
      urlsOf(fetchMock, `/api/events/${SLUG}/listings`).some((u) => u.searchParams.get('sort') === 'price_asc'),
    ).toBe(true);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'price_desc');
    await waitFor(() =>
      expect(
        urlsOf(fetchMock, `/api/events/${SLUG}/listings`).some((u) => u.searchParams.get('sort') === 'price_desc'),
      ).toBe(true),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'section');
    await waitFor(() =>
      expect(
        urlsOf(fetchMock, `/api/events/${SLUG}/listings`).some((u) => u.searchParams.get('sort') === 'section'),
      ).toBe(true),
    );
  });

  it('filters on the all-in price and can clear the filter', async () => {
    const { fetchMock, user } = setup((url) =>
      listingsBody(url.searchParams.has('minPrice') ? [CHEAP] : [CHEAP, SHIPPED]),
    );
    await screen.findByRole('listitem', { name: 'Section 305, Row B' });
    await user.type(screen.getByRole('spinbutton', { name: 'Min $' }), '100');
    await user.type(screen.getByRole('spinbutton', { name: 'Max $' }), '150');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => {
      const filtered = urlsOf(fetchMock, `/api/events/${SLUG}/listings`).find((u) => u.searchParams.has('minPrice'));
      expect(filtered?.searchParams.get('minPrice')).toBe('100');
      expect(filtered?.searchParams.get('maxPrice')).toBe('150');
    });
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Section 305, Row B' })).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Clear price' }));
    await screen.findByRole('listitem', { name: 'Section 305, Row B' });
    expect(screen.getByTestId('location').textContent).not.toContain('minPrice');
  });

  it('refuses a minimum above the maximum without fetching', async () => {
    const { fetchMock, user } = setup();
    await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    const calls = fetchMock.mock.calls.length;
    const min = screen.getByRole('spinbutton', { name: 'Min $' });
    await user.type(min, '200');
    await user.type(screen.getByRole('spinbutton', { name: 'Max $' }), '100');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText('The minimum price is above the maximum')).toBeTruthy();
    expect(min.getAttribute('aria-invalid')).toBe('true');
    expect(fetchMock.mock.calls.length).toBe(calls);
  });

  it('reads quantity, sort and prices from the address', async () => {
    const { fetchMock } = setup(undefined, `/events/${SLUG}?quantity=3&sort=section&minPrice=20&maxPrice=300`);
    await screen.findByRole('listitem', { name: 'Section 112, Row F' });
    const u = urlsOf(fetchMock, `/api/events/${SLUG}/listings`).find((x) => x.searchParams.has('quantity'))!;
    expect(Object.fromEntries(u.searchParams)).toEqual({
      quantity: '3',
      sort: 'section',
      minPrice: '20',
      maxPrice: '300',
    });
  });

  it('says when nothing matches the quantity or price, and when the event is sold out', async () => {
    setup((url) => listingsBody(url.searchParams.has('quantity') ? [] : [CHEAP]));
    expect(await screen.findByText(/No tickets for 2 tickets\. Try a different number of tickets\./)).toBeTruthy();
    cleanup();
    vi.unstubAllGlobals();
    setup(() => listingsBody([]));
    expect(await screen.findByText(/This event is sold out right now/)).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('says an event that has started is no longer on sale instead of listing or calling it sold out', async () => {
    setup(() => ({
      ...listingsBody([]),
      sale: {
        onSale: false,
        code: 'event_started',
        message: 'This event has already started; its tickets are no longer sold',
      },
    }));
    expect(await screen.findByText('This event has already started; its tickets are no longer sold.')).toBeTruthy();
    expect(screen.queryByText(/sold out/)).toBeNull();
    expect(screen.queryByRole('list')).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Tickets' })).toBeNull();
  });

  it('says the date is to be announced for an event on sale without a date', async () => {
    setup(() => ({ ...listingsBody([CHEAP]), sale: { onSale: true, dateToBeAnnounced: true } }));
    expect(await screen.findByText(/^Date to be announced/)).toBeTruthy();
    expect(await screen.findByRole('listitem', { name: 'Section 112, Row F' })).toBeTruthy();
  });

  it('offers a retry when listings fail to load', async () => {
    mockFetch({
      [`GET /api/events/${SLUG}/listings`]: () => json({ error: { code: 'internal', message: 'boom' } }, 500),
    });
    renderAt(<ListingsPanel slug={SLUG} />, { route: `/events/${SLUG}` });
    expect((await screen.findByRole('alert')).textContent).toContain('We could not load tickets right now.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});

describe('seatLabel', () => {
  it('names a bare section number, and keeps a section already named in words', () => {
    expect(seatLabel({ section: '112', row: 'F' })).toBe('Section 112, Row F');
    expect(seatLabel({ section: 'Upper Level 338', row: '15' })).toBe('Upper Level 338, Row 15');
    expect(seatLabel({ section: 'Section 102', row: '39' })).toBe('Section 102, Row 39');
  });
});

describe('before the script runs (RULES 8.5, 10.15)', () => {
  it('sends "Accessible seating only" with the quantity and sort form, and the price filter keeps it', async () => {
    setup(() => listingsBody([CHEAP]), `/events/${SLUG}?accessible=1`);
    const box = await screen.findByRole('checkbox', { name: 'Accessible seating only' });
    const choices = screen.getByRole('combobox', { name: 'Tickets' }).closest('form')!;
    expect(box.getAttribute('form')).toBe(choices.id);
    expect([box.getAttribute('name'), box.getAttribute('value')]).toEqual(['accessible', '1']);
    const kept = [...document.querySelectorAll<HTMLInputElement>('form input[type="hidden"][name="accessible"]')];
    expect(kept.map((i) => i.value)).toEqual(['1']);
  });
});
