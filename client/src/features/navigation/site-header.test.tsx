// @vitest-environment happy-dom
import { cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SiteHeader } from './site-header.js';
import { mockMenuFetch, renderWithProviders } from './test-utils.js';

function renderHeader() {
  return renderWithProviders(
    <SiteHeader
      brandName="Acme Tickets"
      logo="/logo.svg"
      search={<input aria-label="Search events" />}
      mobileSearch={<button type="button">Search</button>}
    />,
    { route: '/somewhere' },
  );
}

async function openDrawer(user: ReturnType<typeof userEvent.setup>) {
  renderHeader();
  const menuButton = screen.getByRole('button', { name: 'Open menu' });
  await user.click(menuButton);
  const dialog = screen.getByRole('dialog', { name: 'Menu' });
  await within(dialog).findByRole('tablist');
  return { menuButton, dialog };
}

describe('SiteHeader', () => {
  beforeEach(() => {
    mockMenuFetch();
  });
  afterEach(() => {
    cleanup();
    document.documentElement.style.overflow = '';
    vi.unstubAllGlobals();
  });

  it('shows the resale banner, the home logo link and both search slots', async () => {
    renderHeader();
    const header = screen.getByRole('banner');
    expect(header.textContent).toMatch(/resale marketplace/i);
    expect(header.textContent).toMatch(/above face value/i);
    expect(screen.getByRole('link', { name: 'Acme Tickets home' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('textbox', { name: 'Search events' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Search' })).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Sports' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens the drawer as a modal dialog, locks scrolling and focuses inside it', async () => {
    const user = userEvent.setup();
    document.documentElement.style.overflow = 'auto';
    const { menuButton, dialog } = await openDrawer(user);
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(menuButton.getAttribute('aria-controls')).toBe(dialog.id);
    expect(document.documentElement.style.overflow).toBe('hidden');
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('switches tabs with the arrow keys', async () => {
    const user = userEvent.setup();
    const { dialog } = await openDrawer(user);
    const tabs = within(dialog).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Sports', 'Concerts', 'Theater', 'Other']);
    expect(tabs[0]?.getAttribute('aria-selected')).toBe('true');
    expect(within(dialog).getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tabs[0]?.id);

    tabs[0]?.focus();
    await user.keyboard('{ArrowRight}');
    expect(tabs[1]?.getAttribute('aria-selected')).toBe('true');
    expect(tabs[0]?.getAttribute('aria-selected')).toBe('false');
    expect(document.activeElement).toBe(tabs[1]);
    expect(within(within(dialog).getByRole('tabpanel')).getByRole('link', { name: 'Pop & Rock' })).toBeTruthy();

    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(tabs[3]?.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tabs[3]);
    await user.keyboard('{Home}');
    expect(tabs[0]?.getAttribute('aria-selected')).toBe('true');
  });

  it('shows Sports leagues as collapsible sections', async () => {
    const user = userEvent.setup();
    const { dialog } = await openDrawer(user);
    const panel = within(dialog).getByRole('tabpanel');
    const nfl = within(panel).getByRole('button', { name: 'NFL' });
    expect(
      within(panel)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['NFL', 'MLB', 'NHL', 'NBA']);
    expect(nfl.getAttribute('aria-expanded')).toBe('false');
    expect(within(panel).queryByRole('link', { name: 'Arizona Cardinals' })).toBeNull();
    await user.click(nfl);
    expect(nfl.getAttribute('aria-expanded')).toBe('true');
    const list = within(panel).getByRole('list', { name: 'NFL' });
    expect(within(list).getAllByRole('link')[0]?.textContent).toBe('All');
  });

  it('closes on Escape, restoring scrolling and focus', async () => {
    const user = userEvent.setup();
    document.documentElement.style.overflow = 'auto';
    const { menuButton } = await openDrawer(user);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.documentElement.style.overflow).toBe('auto');
    expect(document.activeElement).toBe(menuButton);
    expect(menuButton.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on the close button and on the backdrop', async () => {
    const user = userEvent.setup();
    const { menuButton, dialog } = await openDrawer(user);
    await user.click(within(dialog).getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(menuButton);

    await user.click(menuButton);
    await user.click(document.querySelector<HTMLElement>('.nav-drawer__backdrop')!);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.documentElement.style.overflow).toBe('');
  });

  it('closes on navigation', async () => {
    const user = userEvent.setup();
    const { dialog } = await openDrawer(user);
    await user.click(within(dialog).getByRole('tab', { name: 'Theater' }));
    await user.click(within(dialog).getByRole('link', { name: 'Broadway' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/category/broadway');
    expect(document.documentElement.style.overflow).toBe('');
  });

  it('keeps Tab inside the drawer', async () => {
    const user = userEvent.setup();
    const { dialog } = await openDrawer(user);
    const close = within(dialog).getByRole('button', { name: 'Close menu' });
    expect(document.activeElement).toBe(close);
    await user.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).not.toBe(close);
    await user.tab();
    expect(document.activeElement).toBe(close);
  });
});
