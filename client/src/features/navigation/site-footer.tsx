import { useId } from 'react';
import { GUARANTEE_PATH } from '../../../../shared/rules/site-paths.js';
import { AppLink } from '../../components/app-link.js';
import { KeptMarkup } from '../../components/kept-markup.js';
import { SocialIcon } from './icons.js';
import { FOOTER_CATEGORIES, POLICY_LINKS, SOCIAL_LINKS } from './menu-data.js';
import './navigation.css';

/**
 * Site footer (RULES 1.2, 12.5): category, social and policy links and the money-back bar. Drawn from its id alone,
 * so the server writes it again as text (RULES 13.13).
 */
export function SiteFooter() {
  const newTabId = useId();
  return (
    <KeptMarkup as="footer" cacheKey={() => `footer ${newTabId}`} className="nav-footer">
      <p className="nav-footer__guarantee">
        <AppLink to={GUARANTEE_PATH}>100% Money Back Guarantee</AppLink>
      </p>
      <div className="nav-footer__inner">
        <nav className="nav-footer__categories" aria-label="Footer categories">
          {FOOTER_CATEGORIES.map((group) => (
            <div key={group.url} className="nav-footer__group">
              <h2 className="nav-footer__heading">
                <AppLink to={group.url}>{group.name}</AppLink>
              </h2>
              <ul className="nav-footer__list">
                {group.links.map((link) => (
                  <li key={link.url}>
                    <AppLink to={link.url}>{link.name}</AppLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          <div className="nav-footer__group">
            <h2 className="nav-footer__heading">Help</h2>
            <ul className="nav-footer__list">
              {POLICY_LINKS.map((link) => (
                <li key={link.url}>
                  <AppLink to={link.url}>{link.name}</AppLink>
                </li>
              ))}
            </ul>
          </div>
        </nav>
        <div className="nav-footer__social">
          <h2 className="nav-footer__heading" id={`${newTabId}-social`}>
            Follow us
          </h2>
          <ul className="nav-footer__social-list" aria-labelledby={`${newTabId}-social`}>
            {SOCIAL_LINKS.map((link) => (
              <li key={link.network}>
                <a
                  href={link.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={link.name}
                  aria-describedby={newTabId}
                  className="nav-footer__social-link"
                >
                  <SocialIcon network={link.network} />
                </a>
              </li>
            ))}
          </ul>
          <span id={newTabId} hidden>
            Opens in a new tab
          </span>
        </div>
      </div>
      <p className="nav-footer__note">A resale marketplace. Ticket prices may be above face value.</p>
    </KeptMarkup>
  );
}
