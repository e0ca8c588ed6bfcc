// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GuaranteePage, PoliciesPage } from './info-pages.js';
import { mockFetch } from '../../test/fetch-stub.js';
import { renderAt } from '../../test/render-page.js';

afterEach(cleanup);

describe('the guarantee page (RULES 20.4)', () => {
  it('says what is covered with its figures, what is not, and how to claim', () => {
    renderAt(<GuaranteePage />, { route: '/guarantee' });
    expect(screen.getByRole('heading', { level: 1, name: '100% Money Back Guarantee' })).toBeTruthy();
    const covered = screen.getByRole('region', { name: 'What is covered' });
    // RULES 19.2: a moved event's refund window; RULES 20.3: a seller who cannot supply, refunded within 10 business
    // days.
    expect(covered.textContent).toContain('for 30 days after we tell you of the change');
    expect(covered.textContent).toContain('a full refund within 10 business days');
    expect(screen.getByRole('region', { name: 'What is not covered' }).textContent).toContain('Changing your mind');
    const claim = screen.getByRole('region', { name: 'How to claim' });
    expect(claim.textContent).toContain('within 7 days after the event date');
    expect(claim.textContent).toContain('support@tickets.example');
  });
});

describe('an information page opened at a fragment', () => {
  it('scrolls to the element it names, and draws the page when its escapes spell no text', async () => {
    // Nothing the page asks the API for matters here.
    mockFetch({});
    const scrolled = vi.fn();
    vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(scrolled);
    renderAt(<PoliciesPage />, { route: '/policies#%6Fptout' });
    await vi.waitFor(() => expect(scrolled).toHaveBeenCalledTimes(1));
    expect((scrolled.mock.contexts[0] as Element).id).toBe('optout');
    cleanup();
    renderAt(<PoliciesPage />, { route: '/policies#%zz' });
    expect(screen.getByRole('heading', { level: 1 })).toBeTruthy();
    expect(scrolled).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
  });
});
