import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { callQueryKey } from '../../../../shared/schemas/api-calls.js';
import { KeptMarkup } from '../../components/kept-markup.js';
import { MenuIcon } from './icons.js';
import { MegaMenu } from './mega-menu.js';
import { menuCall } from './menu-data.js';
import { MobileMenu } from './mobile-menu.js';
import './navigation.css';

export interface SiteHeaderProps {
  /** The search box shown on wide screens. */
  search: ReactNode;
  /** The phone search control (opens the full-screen overlay). */
  mobileSearch: ReactNode;
  brandName: string;
  /** Logo image address. */
  logo: string;
}

/**
 * Sticky site header (RULES 1.1, 12.1); wide and phone layouts switch in CSS at 768 px. On the server it is drawn
 * closed and empty (no search typed, no menu open), from the brand, its ids and the menu (never part of a page
 * today), so the server writes it again as text (RULES 13.13).
 */
export function SiteHeader({ search, mobileSearch, brandName, logo }: SiteHeaderProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const drawerId = useId();
  const queryClient = useQueryClient();
  const cacheKey = () =>
    JSON.stringify(['header', drawerId, brandName, logo, queryClient.getQueryData(callQueryKey(menuCall)) ?? null]);

  return (
    <KeptMarkup as="header" cacheKey={cacheKey} className="nav-header">
      <p className="nav-header__banner">
        We are a resale marketplace, not the box office. Ticket prices may be above face value.
      </p>
      <div className="nav-header__bar">
        <button
          ref={menuButtonRef}
          type="button"
          className="nav-icon-button nav-phone-only"
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? drawerId : undefined}
          onClick={() => setMenuOpen(true)}
        >
          <MenuIcon />
        </button>
        <Link to="/" className="nav-header__logo" aria-label={`${brandName} home`}>
          <img src={logo} alt="" width={32} height={32} />
          <span className="nav-header__brand">{brandName}</span>
        </Link>
        <div className="nav-header__search nav-wide-only">{search}</div>
        <div className="nav-header__mobile-search nav-phone-only">{mobileSearch}</div>
      </div>
      <div className="nav-wide-only">
        <MegaMenu />
      </div>
      <MobileMenu id={drawerId} open={menuOpen} onClose={() => setMenuOpen(false)} returnFocusRef={menuButtonRef} />
    </KeptMarkup>
  );
}
