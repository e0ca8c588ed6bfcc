// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OPT_OUT_COOKIE, type PrivacyChoice } from '../../../../shared/schemas/privacy.js';
import { pushExposures, pushToDataLayer } from '../../lib/data-layer.js';
import { getStoredToken } from '../../lib/session.js';
import { apiError, json, mockFetch } from '../../test/fetch-stub.js';
import { storeGuestToken } from '../../test/render-page.js';
import { OptOutControl } from './opt-out.js';
import { YourData } from './your-data.js';

const choice = (doNotSellOrShare: boolean, gpc = false): PrivacyChoice => ({
  doNotSellOrShare,
  chosenAt: doNotSellOrShare ? '2026-11-27T10:00:00.000Z' : null,
  globalPrivacyControl: gpc,
  optedOut: gpc || doNotSellOrShare,
});
const setCookie = (value: string | null) =>
  (document.cookie = value === null ? `${OPT_OUT_COOKIE}=; Max-Age=0; Path=/` : `${OPT_OUT_COOKIE}=${value}; Path=/`);

beforeEach(() => {
  storeGuestToken();
  window.dataLayer = [];
});
afterEach(() => {
  cleanup();
  setCookie(null);
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'globalPrivacyControl');
});

describe('the data layer (RULES 21.4: what the site shares)', () => {
  it('takes pushes until the shopper opts out, by the cookie or Global Privacy Control', () => {
    expect(pushToDataLayer({ event: 'purchase', phet: 95 })).toBe(true);
    pushExposures([{ key: 'home-layout', variationId: '1' }], new Set());
    expect(window.dataLayer).toHaveLength(2);
    setCookie('1');
    expect(pushToDataLayer({ event: 'purchase', phet: 95 })).toBe(false);
    pushExposures([{ key: 'search-ab', variationId: '1' }], new Set());
    setCookie(null);
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: true, configurable: true });
    expect(pushToDataLayer({ event: 'card_failed', reason: 'x' })).toBe(false);
    expect(window.dataLayer).toHaveLength(2);
  });
});

describe('Your data (RULES 21.1, 21.3)', () => {
  it('downloads the guest’s data as my-data.json and says so', async () => {
    const fetchMock = mockFetch({ 'GET /api/customers/me/data': () => json({ guestId: 'guest-1' }) });
    const createObjectURL = vi.fn(() => 'blob:data');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    render(<YourData />);
    await userEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Your data was downloaded as my-data.json.'),
    );
    expect(clicked).toEqual(['my-data.json']);
    const [, init] = fetchMock.mock.calls[0]!;
    expect((init?.headers as Record<string, string>).Authorization).toMatch(/^Bearer /);
  });

  it('erases only after the confirmation, then forgets the guest; Escape takes the question back', async () => {
    const fetchMock = mockFetch({ 'DELETE /api/customers/me': () => new Response(null, { status: 204 }) });
    const user = userEvent.setup();
    render(<YourData />);
    await user.click(screen.getByRole('button', { name: 'Erase my data' }));
    const question = screen.getByRole('group', { name: /Erase your personal data\?/ });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Yes, erase my data' }));
    await user.keyboard('{Escape}');
    expect(question.isConnected).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Erase my data' })));
    expect(fetchMock).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Erase my data' }));
    await user.click(screen.getByRole('button', { name: 'Yes, erase my data' }));
    await screen.findByText(/^Your personal data was erased\./);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(getStoredToken()).toBeNull();
  });

  it('says what went wrong when the erasure fails, and keeps the guest', async () => {
    mockFetch({ 'DELETE /api/customers/me': () => apiError(503, 'store_unavailable', 'down') });
    const user = userEvent.setup();
    render(<YourData />);
    await user.click(screen.getByRole('button', { name: 'Erase my data' }));
    await user.click(screen.getByRole('button', { name: 'Yes, erase my data' }));
    await screen.findByText('We could not erase your data. Please try again.');
    expect(getStoredToken()).not.toBeNull();
  });
});

describe('Do Not Sell or Share My Info (RULES 21.4)', () => {
  it('shows the stored choice and records a new one', async () => {
    let stored = choice(false);
    const fetchMock = mockFetch({
      'GET /api/customers/me/privacy': () => json(stored),
      'POST /api/customers/me/privacy': (_url, init) => {
        stored = choice((JSON.parse(String(init.body)) as { doNotSellOrShare: boolean }).doNotSellOrShare);
        return json(stored);
      },
    });
    render(<OptOutControl />);
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Do Not Sell or Share My Info' });
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(false);
    screen.getByText('You have not opted out.');
    await userEvent.click(box);
    expect(box.checked).toBe(true);
    await screen.findByText(/^Saved: you are opted out\./);
    expect(JSON.parse(String(fetchMock.mock.calls.at(-1)![1]!.body))).toEqual({ doNotSellOrShare: true });
  });

  it('puts the choice back when the server does not take it', async () => {
    mockFetch({
      'GET /api/customers/me/privacy': () => json(choice(false)),
      'POST /api/customers/me/privacy': () => apiError(503, 'store_unavailable', 'down'),
    });
    render(<OptOutControl />);
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Do Not Sell or Share My Info' });
    await waitFor(() => expect(box.disabled).toBe(false));
    await userEvent.click(box);
    await screen.findByText('We could not save your choice. Please try again.');
    expect(box.checked).toBe(false);
  });

  it('with Global Privacy Control on, says the browser opted the shopper out and stays checked', async () => {
    Object.defineProperty(navigator, 'globalPrivacyControl', { value: true, configurable: true });
    mockFetch({ 'GET /api/customers/me/privacy': () => json(choice(false, true)) });
    render(<OptOutControl />);
    screen.getByText('Your browser sends Global Privacy Control: you are opted out.');
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Do Not Sell or Share My Info' });
    expect(box.checked).toBe(true);
    expect(box.disabled).toBe(true);
  });
});
