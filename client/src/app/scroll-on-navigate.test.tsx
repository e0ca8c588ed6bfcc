// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { Link, MemoryRouter, Outlet, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useScrollOnNavigate } from './scroll-on-navigate.js';

/** What was scrolled, in order: an element's id, or `top` for the window. */
let scrolls: string[] = [];

beforeEach(() => {
  scrolls = [];
  vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
    scrolls.push(this.id);
  });
  vi.spyOn(window, 'scrollTo').mockImplementation(() => void scrolls.push('top'));
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** The site's shell as the app has it: the hook, then the page, whose own effects React runs first. */
function Shell() {
  useScrollOnNavigate();
  return (
    <>
      <Outlet />
      <Link to="/policies#optout">Do Not Sell or Share My Info</Link>
      <Link to="/faq">FAQ</Link>
    </>
  );
}

function Policies() {
  return (
    <section id="optout">
      <h2>Your choice</h2>
    </section>
  );
}

/** A page whose part is drawn a moment after the page itself, as one whose script loads on first visit. */
function LatePolicies() {
  const [drawn, setDrawn] = useState(false);
  useEffect(() => void setTimeout(() => setDrawn(true), 300), []);
  return drawn ? <Policies /> : <p>Loading</p>;
}

function renderShell(route: string, policies = <Policies />) {
  render(
    <MemoryRouter initialEntries={[route]}>
      <Routes>
        <Route element={<Shell />}>
          <Route path="/policies" element={policies} />
          <Route path="*" element={<p>a page</p>} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

describe('where a page opened in the app starts', () => {
  it('at the part a link names, and stays there: the shell does not send it back to the top', async () => {
    renderShell('/');
    expect(scrolls).toEqual(['top']);
    await userEvent.click(screen.getByRole('link', { name: 'Do Not Sell or Share My Info' }));
    expect(scrolls).toEqual(['top', 'optout']);
    await userEvent.click(screen.getByRole('link', { name: 'FAQ' }));
    expect(scrolls).toEqual(['top', 'optout', 'top']);
  });

  it('at a part drawn after the page, once it is drawn', async () => {
    vi.useFakeTimers();
    renderShell('/policies#optout', <LatePolicies />);
    expect(scrolls).toEqual(['top']);
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(scrolls).toEqual(['top', 'optout']);
  });

  it('at the part its escapes spell, and at the top when they spell no text or name nothing', () => {
    renderShell('/policies#%6Fptout');
    expect(scrolls).toEqual(['optout']);
    cleanup();
    scrolls = [];
    renderShell('/policies#%zz');
    renderShell('/policies#nowhere');
    expect(scrolls).toEqual(['top', 'top']);
  });
});
