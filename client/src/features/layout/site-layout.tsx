import { Link, Outlet } from 'react-router';
import { FOOTER_LINKS } from './category-links.js';

/** Header, width-limited main area and footer (spec §2 layout rules). */
export function SiteLayout() {
  return (
    <>
      <header className="site-header">
        <p className="resale-banner">
          We are a resale marketplace, not the box office. Prices may be above face value.
        </p>
        <div className="site-header__bar">
          <Link to="/" className="logo" aria-label="Home">
            <img src="/favicon.svg" alt="" width="32" height="32" />
            <span>Ticket Storefront</span>
          </Link>
        </div>
      </header>
      <main className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        <p className="guarantee">100% Money Back Guarantee</p>
        <nav className="site-footer__links" aria-label="Categories">
          {Object.entries(FOOTER_LINKS).map(([group, links]) => (
            <div key={group}>
              <h2>{group}</h2>
              <ul>
                {links.map((l) => (
                  <li key={l.slug}>
                    <Link to={`/category/${l.slug}`}>{l.name}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <nav className="site-footer__policies" aria-label="Policies">
          <Link to="/contact-us">Contact us</Link>
          <Link to="/faq">FAQ</Link>
          <Link to="/policies">Policies</Link>
          <Link to="/policies#privacy">Privacy</Link>
          <Link to="/policies#optout">Do Not Sell or Share My Info</Link>
        </nav>
      </footer>
    </>
  );
}
