import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type CSSProperties,
  type FocusEvent,
  type MouseEvent,
} from 'react';
import { Link, useLocation } from 'react-router';
import { headingInto, MENU_AIM_DELAY_MS, type Point } from './menu-aim.js';
import { MENU_CLOSE_DELAY_MS, MENU_COLUMNS, useMenu, type MenuCategory, type MenuLink } from './menu-data.js';
import { MENU_BAR } from '../../../../shared/catalog/menu-bar.js';
import './navigation.css';

// RULES 12.2: 5 columns; the stylesheet reads the count from this property.
const PANEL_STYLE = { '--menu-columns': MENU_COLUMNS } as CSSProperties;

/**
 * Desktop category menu (RULES 12.2, mega-menu): hover opens one category at a time and the
 * panel closes 200 ms after the mouse leaves; keyboard users get a disclosure button per category. The bar is
 * drawn from MENU_BAR; the links are fetched once the pointer or the focus first comes to it (no page carries them).
 */
export function MegaMenu() {
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  const [wanted, setWanted] = useState(false);
  const { data, isError } = useMenu(wanted || openIndex !== null);
  const want = () => setWanted(true);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // A click on a panel that hover has just opened would otherwise close it under the pointer.
  const openedByHover = useRef(false);
  const navRef = useRef<HTMLElement>(null);
  const itemRefs = useRef<(HTMLLIElement | null)[]>([]);
  const buttonRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const baseId = useId();
  const location = useLocation();
  // Menu aim: the pointer's last positions, the category under it, and a switch waiting to see where it goes.
  const trail = useRef<Point[]>([]);
  const hovered = useRef<number | null>(null);
  const switchTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const cancelClose = useCallback(() => {
    if (closeTimer.current !== null) {
      clearTimeout(closeTimer.current);
      closeTimer.current = null;
    }
    if (switchTimer.current !== null) {
      clearTimeout(switchTimer.current);
      switchTimer.current = null;
    }
  }, []);

  const close = useCallback(() => {
    cancelClose();
    openedByHover.current = false;
    setOpenIndex(null);
  }, [cancelClose]);

  useEffect(() => cancelClose, [cancelClose]);

  // A new page closes the menu. The open category follows the location while rendering, so the old page's panel
  // never paints over the new page; the timers and the hover mark of the old page go once it is committed.
  const [menuLocation, setMenuLocation] = useState(location.key);
  if (menuLocation !== location.key) {
    setMenuLocation(location.key);
    setOpenIndex(null);
  }
  useEffect(() => {
    cancelClose();
    openedByHover.current = false;
  }, [location.key, cancelClose]);

  useEffect(() => {
    if (openIndex === null) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const hadFocus = itemRefs.current[openIndex]?.contains(document.activeElement) ?? false;
      close();
      if (hadFocus) buttonRefs.current[openIndex]?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!navRef.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [openIndex, close]);

  const openByHover = (index: number) => {
    openedByHover.current = true;
    setOpenIndex(index);
  };

  /** Whether the pointer's recent path heads into the open panel (so a category it crosses waits). */
  const aimingAtOpenPanel = () => {
    const panel = openIndex === null ? null : document.getElementById(`${baseId}-panel-${openIndex}`);
    const [from, to] = [trail.current[0], trail.current.at(-1)];
    return !!panel && !!from && !!to && headingInto(from, to, panel.getBoundingClientRect());
  };

  const onHoverStart = (index: number) => {
    cancelClose();
    hovered.current = index;
    if (openIndex === index) return;
    if (openIndex !== null && aimingAtOpenPanel()) {
      // Crossed on the way into the open panel: open only if the pointer stays here.
      switchTimer.current = setTimeout(() => {
        switchTimer.current = null;
        if (hovered.current === index) openByHover(index);
      }, MENU_AIM_DELAY_MS);
      return;
    }
    openByHover(index);
  };

  const onHoverEnd = () => {
    cancelClose();
    hovered.current = null;
    closeTimer.current = setTimeout(close, MENU_CLOSE_DELAY_MS);
  };

  const onPointerMove = (event: MouseEvent<HTMLElement>) => {
    const points = trail.current;
    points.push({ x: event.clientX, y: event.clientY });
    if (points.length > 4) points.shift();
  };

  const onTriggerClick = (index: number, event: MouseEvent<HTMLButtonElement>) => {
    cancelClose();
    if (openIndex !== index) {
      openedByHover.current = false;
      setOpenIndex(index);
    } else if (openedByHover.current && event.detail > 0) {
      openedByHover.current = false;
    } else {
      close();
    }
  };

  const onItemBlur = (index: number, event: FocusEvent<HTMLLIElement>) => {
    if (openIndex === index && !event.currentTarget.contains(event.relatedTarget as Node | null)) close();
  };

  return (
    <nav
      className="mega-menu"
      aria-label="Categories"
      ref={navRef}
      onMouseMove={onPointerMove}
      onPointerEnter={want}
      onFocus={want}
    >
      <ul className="mega-menu__bar">
        {MENU_BAR.map((category, index) => {
          const open = openIndex === index;
          const links = data?.categories.find((c) => c.name === category.name);
          const panelId = `${baseId}-panel-${index}`;
          return (
            <li
              key={category.name}
              ref={(el) => {
                itemRefs.current[index] = el;
              }}
              onMouseEnter={() => onHoverStart(index)}
              onMouseLeave={onHoverEnd}
              onBlur={(event) => onItemBlur(index, event)}
            >
              <button
                type="button"
                ref={(el) => {
                  buttonRefs.current[index] = el;
                }}
                className="mega-menu__trigger"
                aria-expanded={open}
                aria-controls={open ? panelId : undefined}
                onClick={(event) => onTriggerClick(index, event)}
              >
                {category.name}
              </button>
              {/* A closed panel is hidden from everyone, so it is built only when it opens (the sports panel
                  alone lists every team of five leagues), and a page carries none (RULES 12.2). */}
              {open && (
                <div id={panelId} className="mega-menu__panel" tabIndex={-1}>
                  <div className="mega-menu__panel-inner" style={PANEL_STYLE}>
                    {category.url ? (
                      <Link className="mega-menu__all" to={category.url} onClick={close}>
                        See all {category.name}
                      </Link>
                    ) : null}
                    {links ? (
                      <PanelGrid category={links} idPrefix={panelId} onNavigate={close} />
                    ) : isError ? null : (
                      <p className="mega-menu__status" role="status">
                        Loading {category.name}…
                      </p>
                    )}
                  </div>
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function PanelGrid({
  category,
  idPrefix,
  onNavigate,
}: {
  category: MenuCategory;
  idPrefix: string;
  onNavigate: () => void;
}) {
  if (category.sections?.length) {
    // RULES 12.4: a column per league section, "All" plus every team.
    return (
      <div className="mega-menu__grid">
        {category.sections.map((section, index) => {
          const headingId = `${idPrefix}-section-${index}`;
          return (
            <div className="mega-menu__column" key={section.url}>
              <p className="mega-menu__heading" id={headingId}>
                {section.name}
              </p>
              <ul className="mega-menu__scroll" aria-labelledby={headingId}>
                <MenuLinks links={section.links} onNavigate={onNavigate} />
              </ul>
            </div>
          );
        })}
      </div>
    );
  }
  // RULES 12.2: flat lists flow across the 5 columns.
  return (
    <ul className="mega-menu__flow" aria-label={category.name}>
      <MenuLinks links={category.links ?? []} onNavigate={onNavigate} />
    </ul>
  );
}

function MenuLinks({ links, onNavigate }: { links: readonly MenuLink[]; onNavigate: () => void }) {
  return (
    <>
      {links.map((link) => (
        <li key={`${link.url} ${link.name}`}>
          <Link className="mega-menu__link" to={link.url} onClick={onNavigate}>
            {link.name}
          </Link>
        </li>
      ))}
    </>
  );
}
