import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { MAX_QUERY_LENGTH } from '../../../../shared/rules/constants.js';
import { RESULTS_PATH } from '../../../../shared/rules/site-paths.js';
import { useSearch, type SearchController } from './use-search.js';
import './search-box.css';
import { trapTab, useScrollLock } from '../../lib/modal.js';

export interface SearchBoxProps {
  /** `dropdown` on wide screens, `overlay` (full-screen dialog) on phones (RULES 7.1). */
  variant: 'dropdown' | 'overlay';
}

export const SEARCH_PLACEHOLDER = 'Search by artist, team';

export function SearchBox({ variant }: SearchBoxProps) {
  return variant === 'overlay' ? <SearchOverlay /> : <SearchDropdown />;
}

function SearchDropdown() {
  const search = useSearch();
  const rootRef = useRef<HTMLFormElement>(null);
  const { open, closePanel } = search;

  // RULES 7.2: closes on a click or touch outside
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) closePanel();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, closePanel]);

  // A form to the results page, so the search works on a server-rendered page before its script runs; once it
  // runs, the keyboard handling below decides what Enter does and the form never submits itself.
  return (
    <form
      ref={rootRef}
      role="search"
      action={RESULTS_PATH}
      method="get"
      className="search-box search-box--dropdown"
      onSubmit={(event) => event.preventDefault()}
      onBlur={(event) => {
        const next = event.relatedTarget;
        if (next instanceof Node && !event.currentTarget.contains(next)) closePanel();
      }}
    >
      <div className="search-box__field">
        <SearchIcon />
        <SearchInput search={search} onKeyDown={search.onKeyDown} />
      </div>
      {search.view !== 'none' && (
        <div className="search-box__panel" onMouseDown={keepInputFocus}>
          <SearchPanel search={search} />
        </div>
      )}
      <SearchStatus text={search.status} />
    </form>
  );
}

function SearchOverlay() {
  const [dialogOpen, setDialogOpen] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setDialogOpen(false), []);
  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        className="search-box__trigger"
        aria-label="Search"
        aria-haspopup="dialog"
        aria-expanded={dialogOpen}
        onClick={() => setDialogOpen(true)}
      >
        <SearchIcon />
      </button>
      {dialogOpen && createPortal(<SearchDialog onClose={close} returnFocusTo={triggerRef} />, document.body)}
    </>
  );
}

function SearchDialog({
  onClose,
  returnFocusTo,
}: {
  onClose: () => void;
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}) {
  const search = useSearch({ onNavigate: onClose });
  const inputRef = useRef<HTMLInputElement>(null);
  const titleId = useId();

  // RULES 7.1: the overlay locks page scrolling while open
  useScrollLock();

  useEffect(() => {
    inputRef.current?.focus();
    const trigger = returnFocusTo.current;
    return () => trigger?.focus();
  }, [returnFocusTo]);

  const onDialogKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    } else if (event.key === 'Tab') {
      trapTab(event);
    }
  };

  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      className="search-box search-box--overlay"
      onKeyDown={onDialogKeyDown}
    >
      <h2 id={titleId} className="sr-only">
        Search
      </h2>
      <div className="search-box__overlay-bar">
        <div className="search-box__field">
          <SearchIcon />
          <SearchInput
            search={search}
            inputRef={inputRef}
            onKeyDown={(event) => {
              // Escape closes the whole dialog, handled above.
              if (event.key !== 'Escape') search.onKeyDown(event);
            }}
          />
        </div>
        <button type="button" className="search-box__close" aria-label="Close search" onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      <div className="search-box__overlay-body" onMouseDown={keepInputFocus}>
        {search.view !== 'none' && <SearchPanel search={search} />}
      </div>
      <SearchStatus text={search.status} />
    </div>
  );
}

function SearchInput({
  search,
  onKeyDown,
  inputRef,
}: {
  search: SearchController;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
  inputRef?: RefObject<HTMLInputElement | null>;
}) {
  const ownRef = useRef<HTMLInputElement>(null);
  const ref = inputRef ?? ownRef;
  const { setInputValue } = search;
  // Words typed into the server-rendered box before the page's script ran are taken up once it has.
  useEffect(() => {
    const typed = ref.current?.value ?? '';
    if (typed !== '' && ref.current === document.activeElement) setInputValue(typed);
  }, [ref, setInputValue]);
  return (
    <input
      ref={ref}
      id={search.ids.input}
      name="kwds"
      className="search-box__input"
      type="text"
      role="combobox"
      aria-label="Search"
      aria-autocomplete="list"
      aria-expanded={search.expanded}
      aria-controls={search.ids.listbox}
      aria-activedescendant={search.activeId ?? undefined}
      placeholder={SEARCH_PLACEHOLDER}
      autoComplete="off"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      enterKeyHint="search"
      // RULES 8.3: no longer than a search the storefront answers (counted in UTF-16 units, never more).
      maxLength={MAX_QUERY_LENGTH}
      value={search.inputValue}
      onChange={(event) => search.setInputValue(event.target.value)}
      onFocus={search.openPanel}
      onClick={search.openPanel}
      onKeyDown={onKeyDown}
    />
  );
}

function SearchPanel({ search }: { search: SearchController }) {
  const { activeId } = search;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  if (search.view === 'no-results') {
    return (
      <div className="search-box__empty">
        <NoResultsIllustration />
        <p>
          No results found. Press Enter to search for <strong>“{search.query}”</strong>.
        </p>
      </div>
    );
  }
  return (
    <div role="listbox" id={search.ids.listbox} aria-label="Search suggestions" className="search-box__listbox">
      {search.groups.map((group) => (
        <ul key={group.id} role="group" aria-labelledby={`${group.id}-label`} className="search-box__group">
          <li role="presentation" id={`${group.id}-label`} className="search-box__group-label">
            {group.label}
          </li>
          {group.options.map((option) => (
            <li
              key={option.id}
              id={option.id}
              role="option"
              aria-selected={option.id === activeId}
              className="search-box__option"
              onClick={() => search.pick(option)}
            >
              {option.image ? (
                <img
                  className="search-box__thumb"
                  src={option.image}
                  alt=""
                  width={40}
                  height={40}
                  loading="lazy"
                  decoding="async"
                />
              ) : (
                <span className="search-box__thumb search-box__thumb--blank" aria-hidden="true" />
              )}
              <span className="search-box__option-text">
                <span className="search-box__option-label">{option.label}</span>
                {option.detail && <span className="search-box__option-detail">{option.detail}</span>}
              </span>
            </li>
          ))}
        </ul>
      ))}
    </div>
  );
}

function SearchStatus({ text }: { text: string }) {
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only">
      {text}
    </div>
  );
}

/** Pressing inside the popup must not blur the input, so the combobox keeps keyboard focus. */
function keepInputFocus(event: MouseEvent) {
  event.preventDefault();
}

function SearchIcon() {
  return (
    <svg
      className="search-box__icon"
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-4-4" />
    </svg>
  );
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
      <path d="M6 6l12 12M18 6 6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function NoResultsIllustration() {
  return (
    <svg className="search-box__empty-art" viewBox="0 0 120 96" width="120" height="96" aria-hidden="true">
      <rect x="14" y="18" width="72" height="56" rx="8" fill="none" stroke="currentColor" strokeWidth="3" />
      <path
        d="M26 34h48M26 46h32M26 58h40"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
        opacity="0.45"
      />
      <circle cx="84" cy="60" r="16" fill="var(--surface)" stroke="var(--brand)" strokeWidth="4" />
      <path d="m96 72 12 12" stroke="var(--brand)" strokeWidth="5" strokeLinecap="round" />
      <path d="m78 54 12 12m0-12-12 12" stroke="var(--brand)" strokeWidth="3" strokeLinecap="round" />
    </svg>
  );
}
