// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { AppLink, AppLinkNavigation } from './app-link.js';

function Where() {
  const { pathname, hash } = useLocation();
  return <p data-testid="where">{pathname + hash}</p>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppLinkNavigation>
        <Where />
        <Routes>
          <Route path="*" element={<AppLink to="/policies#privacy">Privacy</AppLink>} />
        </Routes>
      </AppLinkNavigation>
    </MemoryRouter>,
  );
}

describe('AppLink', () => {
  afterEach(cleanup);

  it('is a plain anchor to its path, followed in the app on a plain click', () => {
    renderAt('/');
    const link = screen.getByRole('link', { name: 'Privacy' });
    expect(link.outerHTML).toBe('<a href="/policies#privacy">Privacy</a>');
    const followed = fireEvent.click(link, { button: 0 });
    expect(followed).toBe(false);
    expect(screen.getByTestId('where').textContent).toBe('/policies#privacy');
  });

  it('leaves a click with a modifier key to the browser (a new tab)', () => {
    renderAt('/');
    const link = screen.getByRole('link', { name: 'Privacy' });
    expect(fireEvent.click(link, { button: 0, ctrlKey: true })).toBe(true);
    expect(fireEvent.click(link, { button: 1 })).toBe(true);
    expect(screen.getByTestId('where').textContent).toBe('/');
  });

  it('outside a router is an anchor the browser follows', () => {
    render(<AppLink to="/faq">FAQ</AppLink>);
    expect(fireEvent.click(screen.getByRole('link', { name: 'FAQ' }), { button: 0 })).toBe(true);
  });
});
