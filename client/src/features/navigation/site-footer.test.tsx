// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SOCIAL_LINKS } from './menu-data.js';
import { SiteFooter } from './site-footer.js';
import { renderWithProviders } from './test-utils.js';

describe('SiteFooter', () => {
  afterEach(cleanup);

  it('links the policies, with the exact opt-out label', () => {
    renderWithProviders(<SiteFooter />);
    const footer = screen.getByRole('contentinfo');
    const href = (name: string) => within(footer).getByRole('link', { name }).getAttribute('href');
    expect(href('Do Not Sell or Share My Info')).toBe('/policies#optout');
    expect(href('Contact Us')).toBe('/contact-us');
    expect(href('FAQ')).toBe('/faq');
    expect(href('Policies')).toBe('/policies');
    expect(href('Privacy Policy')).toBe('/policies#privacy');
  });

  it('links the Sports, Concerts and Theater categories', () => {
    renderWithProviders(<SiteFooter />);
    const nav = screen.getByRole('navigation', { name: 'Footer categories' });
    const hrefs = within(nav)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    for (const path of [
      '/category/sports',
      '/category/concerts',
      '/category/theater',
      '/category/nfl',
      '/category/mlb',
      '/category/nhl',
      '/category/nba',
      '/category/broadway',
    ]) {
      expect(hrefs).toContain(path);
    }
  });

  it('opens social links safely in a new tab with accessible names', () => {
    renderWithProviders(<SiteFooter />);
    const instagram = screen.getByRole('link', { name: 'Instagram' });
    expect(instagram.getAttribute('href')).toMatch(/^https:\/\//);
    expect(instagram.getAttribute('target')).toBe('_blank');
    expect(instagram.getAttribute('rel')).toBe('noopener noreferrer');
    for (const a of within(screen.getByRole('list', { name: 'Follow us' })).getAllByRole('link')) {
      expect(a.getAttribute('rel')).toBe('noopener noreferrer');
      expect(a.getAttribute('aria-label')).toBeTruthy();
    }
  });

  it("draws each network's mark from the one file of marks, which holds a symbol for each", () => {
    renderWithProviders(<SiteFooter />);
    const sprite = readFileSync(path.join(import.meta.dirname, 'social-icons.svg'), 'utf8');
    for (const { network, name } of SOCIAL_LINKS) {
      const use = screen.getByRole('link', { name }).querySelector('svg[aria-hidden="true"] > use');
      const [file, id] = (use?.getAttribute('href') ?? '').split('#');
      expect(file, name).toMatch(/social-icons[^/]*\.svg(\?no-inline)?$/);
      expect(id, name).toBe(network);
      expect(sprite, name).toMatch(new RegExp(`<symbol id="${network}" viewBox="0 0 24 24"`));
    }
  });

  it('shows the money-back guarantee bar', () => {
    renderWithProviders(<SiteFooter />);
    expect(screen.getByText('100% Money Back Guarantee').textContent).toBe('100% Money Back Guarantee');
  });
});
