import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { Link, useLocation } from 'react-router';
import { ChevronIcon, CloseIcon } from './icons.js';
import { TOP_CATEGORY_LINKS, WIDE_MEDIA_QUERY, useMenu, type MenuCategory, type MenuLink } from './menu-data.js';
import './navigation.css';
import { trapTab, useScrollLock } from '../../lib/modal.js';

export interface MobileMenuProps {
  open: boolean;
  onClose: () => void;
  /** The button that opened the drawer; focus goes back to it on close. */
  returnFocusRef: RefObject<HTMLElement | null>;
  /** The dialog's id, for the opening button's `aria-controls`. */
  id?: string;
}

/** Phone slide-out menu with category tabs (RULES 12.3). */
export function MobileMenu({ open, ...props }: MobileMenuProps) {
  if (!open) return null;
  return createPortal(<MobileMenuDialog {...props} />, document.body);
}

function MobileMenuDialog({ onClose, returnFocusRef, id }: Omit<MobileMenuProps, 'open'>) {
  const { data, isError } = useMenu();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const location = useLocation();
  const openedAt = useRef(location.key);
  const onCloseRef = useRef(onClose);

  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useScrollLock();
  useEffect(() => {
    closeRef.current?.focus();
    const returnTo = returnFocusRef.current;
    return () => returnTo?.focus();
  }, [returnFocusRef]);

  useEffect(() => {
    if (location.key !== openedAt.current) onCloseRef.current();
  }, [location.key]);

  // The drawer has no place on wide screens, where the menu button is hidden too.
  useEffect(() => {
    const query = window.matchMedia?.(WIDE_MEDIA_QUERY);
    if (!query) return;
    const onChange = (event: MediaQueryListEvent) => {
      if (event.matches) onCloseRef.current();
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    trapTab(event);
  };

  return (
    <div className="nav-drawer">
      <div className="nav-drawer__backdrop" aria-hidden="true" onClick={onClose} />
      <div
        ref={dialogRef}
        id={id}
        className="nav-drawer__panel"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
      >
        <div className="nav-drawer__head">
          <h2 className="nav-drawer__title" id={titleId}>
            Menu
          </h2>
          <button ref={closeRef} type="button" className="nav-icon-button" aria-label="Close menu" onClick={onClose}>
            <CloseIcon />
          </button>
        </div>
        {data ? (
          <CategoryTabs categories={data.categories} onNavigate={onClose} />
        ) : (
          <div className="nav-drawer__body">
            {isError ? (
              <ul className="nav-drawer__list">
                <DrawerLinks links={TOP_CATEGORY_LINKS} onNavigate={onClose} />
              </ul>
            ) : (
              <p className="nav-drawer__status" role="status">
                Loading categories…
              </p>
            )}
          </div>
        )}
      </div>
    </div>
  );
}

function CategoryTabs({ categories, onNavigate }: { categories: readonly MenuCategory[]; onNavigate: () => void }) {
  const [selected, setSelected] = useState(0);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const baseId = useId();

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = categories.length - 1;
    let next: number;
    switch (event.key) {
      case 'ArrowRight':
        next = selected === last ? 0 : selected + 1;
        break;
      case 'ArrowLeft':
        next = selected === 0 ? last : selected - 1;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = last;
        break;
      default:
        return;
    }
    event.preventDefault();
    setSelected(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <>
      <div className="nav-drawer__tabs" role="tablist" aria-label="Categories" onKeyDown={onKeyDown}>
        {categories.map((category, index) => (
          <button
            key={category.name}
            ref={(el) => {
              tabRefs.current[index] = el;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${index}`}
            className="nav-drawer__tab"
            aria-selected={index === selected}
            aria-controls={`${baseId}-panel-${index}`}
            tabIndex={index === selected ? 0 : -1}
            onClick={() => setSelected(index)}
          >
            {category.name}
          </button>
        ))}
      </div>
      {categories.map((category, index) => (
        <div
          key={category.name}
          role="tabpanel"
          id={`${baseId}-panel-${index}`}
          aria-labelledby={`${baseId}-tab-${index}`}
          className="nav-drawer__body"
          hidden={index !== selected}
        >
          {index === selected ? <CategoryPanel category={category} onNavigate={onNavigate} /> : null}
        </div>
      ))}
    </>
  );
}

function CategoryPanel({ category, onNavigate }: { category: MenuCategory; onNavigate: () => void }) {
  return (
    <ul className="nav-drawer__list">
      {category.url ? (
        <li>
          <Link className="nav-drawer__link nav-drawer__link--all" to={category.url} onClick={onNavigate}>
            See all {category.name}
          </Link>
        </li>
      ) : null}
      {category.sections?.map((section) => (
        <CollapsibleSection key={section.url} name={section.name} links={section.links} onNavigate={onNavigate} />
      ))}
      {category.links ? <DrawerLinks links={category.links} onNavigate={onNavigate} /> : null}
    </ul>
  );
}

function CollapsibleSection({
  name,
  links,
  onNavigate,
}: {
  name: string;
  links: readonly MenuLink[];
  onNavigate: () => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  return (
    <li className="nav-drawer__section">
      <button
        type="button"
        className="nav-drawer__section-toggle"
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => setExpanded((v) => !v)}
      >
        {name}
        <ChevronIcon className="nav-drawer__chevron" />
      </button>
      <ul id={listId} className="nav-drawer__list nav-drawer__list--nested" aria-label={name} hidden={!expanded}>
        <DrawerLinks links={links} onNavigate={onNavigate} />
      </ul>
    </li>
  );
}

function DrawerLinks({ links, onNavigate }: { links: readonly MenuLink[]; onNavigate: () => void }) {
  return (
    <>
      {links.map((link) => (
        <li key={`${link.url} ${link.name}`}>
          <Link className="nav-drawer__link" to={link.url} onClick={onNavigate}>
            {link.name}
          </Link>
        </li>
      ))}
    </>
  );
}
