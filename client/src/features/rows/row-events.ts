import { createContext, useContext, useEffect, useRef, type RefObject } from 'react';
import type { LayoutRow } from '../../../../shared/schemas/layout.js';
import { track, type EventFields } from '../../lib/analytics.js';

/** A row counts as seen when at least this share of it (or of the screen, for a row taller than two) is in view… */
export const IMPRESSION_VISIBLE_SHARE = 0.5;
/** …for this long without a break. */
export const IMPRESSION_DWELL_MS = 1_000;

/** What a row on a shopper's page records its events under; no value (the studio's previews): nothing recorded. */
export interface RowTrackingValue {
  pageView: string;
  variation: string;
  /** The row's place on the page, from 1. */
  position: number;
}
export const RowTracking = createContext<RowTrackingValue | null>(null);

/**
 * The row's impression (once per page view, while it `showsItems`) and the clicks on its cards, for the element the
 * returned ref is put on. Effects only: nothing runs while the server renders.
 */
export function useRowEvents(
  row: Pick<LayoutRow, 'id' | 'source'>,
  showsItems: boolean,
): RefObject<HTMLElement | null> {
  const ref = useRef<HTMLElement>(null);
  const tracking = useContext(RowTracking);
  const { id } = row;
  const file = row.source?.file;
  const version = row.source?.version;
  const pageView = tracking?.pageView;
  const variation = tracking?.variation;
  const position = tracking?.position;
  useEffect(() => {
    const element = ref.current;
    if (!element || pageView === undefined || variation === undefined || position === undefined) return;
    const fields = {
      rowId: id,
      position,
      variation,
      ...(file !== undefined && version !== undefined ? { source: { file, version } } : {}),
    } satisfies Partial<EventFields>;
    const stopWatching = showsItems
      ? watchImpression(element, () => track({ name: 'row_impression', ...fields }, `row:${id}`))
      : () => {};
    // Capture: before the card's link navigates, so the click belongs to this page.
    const onClick = (event: MouseEvent) => {
      const card = cardOf(element, event.target);
      if (card) track({ name: 'row_click', ...fields, ...card });
    };
    element.addEventListener('click', onClick, true);
    return () => {
      stopWatching();
      element.removeEventListener('click', onClick, true);
    };
  }, [id, file, version, pageView, variation, position, showsItems]);
  return ref;
}

/** The card a click landed in, by its `data-item`, and its place among the row's cards (from 1). */
export function cardOf(row: Element, target: EventTarget | null): { item: string; itemPosition: number } | null {
  const card = target instanceof Element ? target.closest('[data-item]') : null;
  const item = card?.getAttribute('data-item');
  if (!card || !item || !row.contains(card)) return null;
  return { item, itemPosition: [...row.querySelectorAll('[data-item]')].indexOf(card) + 1 };
}

/** Calls `onSeen` once the element has been in view (`inView`) for the dwell time without a break. */
function watchImpression(element: HTMLElement, onSeen: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const observer = new IntersectionObserver(
    (entries) => {
      const entry = entries.at(-1);
      if (entry && inView(entry)) {
        timer ??= setTimeout(() => {
          observer.disconnect();
          onSeen();
        }, IMPRESSION_DWELL_MS);
      } else {
        clearTimeout(timer);
        timer = undefined;
      }
    },
    { threshold: thresholds(element) },
  );
  observer.observe(element);
  return () => {
    clearTimeout(timer);
    observer.disconnect();
  };
}

/** Half the row in view, or, for a row that cannot be (taller than two screens), half the screen filled by it. */
export function inView(entry: IntersectionObserverEntry): boolean {
  if (!entry.isIntersecting) return false;
  if (entry.intersectionRatio >= IMPRESSION_VISIBLE_SHARE) return true;
  const screen = entry.rootBounds?.height ?? window.innerHeight;
  return screen > 0 && entry.intersectionRect.height >= screen * IMPRESSION_VISIBLE_SHARE;
}

/** The ratios at which a row starts or stops counting as in view. */
function thresholds(element: HTMLElement): number[] {
  const height = element.getBoundingClientRect().height;
  const tall = height > 0 ? (window.innerHeight * IMPRESSION_VISIBLE_SHARE) / height : IMPRESSION_VISIBLE_SHARE;
  return tall < IMPRESSION_VISIBLE_SHARE ? [tall, IMPRESSION_VISIBLE_SHARE] : [IMPRESSION_VISIBLE_SHARE];
}
