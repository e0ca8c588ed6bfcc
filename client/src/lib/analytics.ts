import { useSyncExternalStore } from 'react';
import type { BrowserEvent } from '../../../shared/schemas/analytics-events.js';
import {
  browserEventProblem,
  EVENT_TEXT_MAX,
  isEventId,
  MAX_EVENT_BATCH_BYTES,
  MAX_EVENTS_PER_BATCH,
  PAGE_VIEW_HEADER,
} from '../../../shared/schemas/browser-events.js';
import { apiHeaders, SITE_ID } from './api.js';
import { globalPrivacyControl, optedOutByChoice } from './privacy.js';

/**
 * First-party events: queued in the page and sent to the server in batches, never in the way of the page. A
 * failed send is dropped; with Global Privacy Control or Do Not Track on, nothing is queued or sent at all.
 */

export const EVENTS_PATH = '/api/events';
/** Queued events wait at most this long to be sent together. */
export const FLUSH_INTERVAL_MS = 2_000;
/** The variation of a page that shows no experiment's layout. */
export const BASE_VARIATION = 'base';
/** Random bytes in an id: as many as a UUID has. */
const ID_BYTES = 16;
const PAGE_PATH_MAX = EVENT_TEXT_MAX.page;
/** The bytes of `{"events":[]}` around a batch's events. */
/** A beacon carries no `X-Site-Id` header: the site id goes in the batch. */
const ENVELOPE_START = `{"site":${Number(SITE_ID)},"events":[`;
const BATCH_ENVELOPE_BYTES = ENVELOPE_START.length + ']}'.length;

/** What a caller says of an event; the queue adds its id, page view, page and time. */
export type EventFields = Omit<BrowserEvent, 'id' | 'pageView' | 'page' | 'at'>;

interface PageView {
  id: string;
  /** What was already counted in this page view (its page view event, each row's impression, each exposure). */
  counted: Set<string>;
  /** The experiments the page's layout answer listed: the server recorded their exposures. */
  layoutExperiments: ReadonlySet<string>;
}

let view: PageView | null = null;
const viewListeners = new Set<() => void>();
let queue: BrowserEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

/**
 * Whether the shopper lets the site track them: not with Global Privacy Control or Do Not Track on, nor once they
 * opted out of selling and sharing (RULES 21.4).
 */
export function trackingAllowed(): boolean {
  if (typeof navigator === 'undefined') return false;
  return !globalPrivacyControl() && navigator.doNotTrack !== '1' && !optedOutByChoice();
}

/** A random id (base64url, 22 characters) as `isEventId` takes it; also in pages served over plain http. */
export function newEventId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ID_BYTES));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

function startView(id: string): PageView {
  return { id, counted: new Set(), layoutExperiments: new Set() };
}

function currentView(): PageView {
  return (view ??= startView(newEventId()));
}

export function currentPageView(): string {
  return currentView().id;
}

/**
 * Starts a page view and returns its id. `given` is an id the server already chose for this page view (a page it
 * rendered), used when it is a valid id.
 */
export function newPageView(given?: string): string {
  view = startView(given !== undefined && isEventId(given) ? given : newEventId());
  for (const listener of viewListeners) listener();
  return view.id;
}

function onPageView(listener: () => void): () => void {
  viewListeners.add(listener);
  return () => viewListeners.delete(listener);
}

/** The current page view's id, re-rendering when a new one starts (empty while the server renders). */
export function usePageView(): string {
  return useSyncExternalStore(onPageView, currentPageView, () => '');
}

/** The page view header of a layout request, so the exposures the server records join the page's events. */
export function pageViewHeaders(): Record<string, string> {
  return trackingAllowed() ? { [PAGE_VIEW_HEADER]: currentPageView() } : {};
}

/** Queues an event of the current page view; with `once`, only the first event under that name in the page view. */
export function track(fields: EventFields, once?: string): void {
  try {
    if (!trackingAllowed()) return;
    const current = currentView();
    if (once !== undefined) {
      if (current.counted.has(once)) return;
      current.counted.add(once);
    }
    const event: BrowserEvent = {
      id: newEventId(),
      pageView: current.id,
      page: location.pathname.slice(0, PAGE_PATH_MAX),
      at: Date.now(),
      ...fields,
    };
    // The server refuses a whole batch for one bad event: one is dropped here instead (checked by hand, with the
    // schema's figures: the first screen carries no zod).
    const problem = browserEventProblem(event);
    if (problem) {
      console.debug('event dropped', fields.name, problem);
      return;
    }
    queue.push(event);
    listenForHide();
    if (queue.length >= MAX_EVENTS_PER_BATCH) flushEvents();
    else timer ??= setTimeout(() => flushEvents(), FLUSH_INTERVAL_MS);
  } catch (err) {
    console.debug('event dropped', err);
  }
}

/** The page view event, once per page view, with the variation of the page's layout. */
export function trackPageView(variation: string): void {
  track({ name: 'page_view', variation }, 'page_view');
}

/**
 * An experiment the shopper was put in, once per experiment per page view, unless the page's layout answer listed
 * it (the server recorded that exposure when it answered).
 */
export function trackExperimentViewed(experimentId: string, variationId: string): void {
  if (currentView().layoutExperiments.has(experimentId)) return;
  track({ name: 'experiment_viewed', experimentId, variationId }, `experiment_viewed:${experimentId}`);
}

/** The experiments the current page's layout answer lists: exposures to them are the server's to record. */
export function noteLayoutExperiments(keys: readonly string[]): void {
  const current = currentView();
  current.layoutExperiments = new Set(keys);
  // One reported before the answer came is still in the queue: it goes.
  queue = queue.filter(
    (e) => !(e.name === 'experiment_viewed' && e.pageView === current.id && keys.includes(e.experimentId ?? '')),
  );
}

/** Sends everything queued, in batches; with `beacon`, the way that outlives the page (it is being hidden). */
export function flushEvents({ beacon = false }: { beacon?: boolean } = {}): void {
  clearTimeout(timer);
  timer = undefined;
  while (queue.length > 0) send(takeBatch(), beacon);
}

/** Events kept for sending again while the server asks to wait: a busy minute's worth, the oldest going first. */
const MAX_HELD_EVENTS = 500;
/** The longest wait a `Retry-After` is followed for, in seconds. */
const MAX_RETRY_AFTER_SECONDS = 60;

/** A batch the server could not take now (503, 429) goes back in the queue, sent again after its `Retry-After`. */
function sendAgainLater(events: readonly BrowserEvent[], retryAfter: string | null): void {
  queue = [...events, ...queue].slice(-MAX_HELD_EVENTS);
  const seconds = Math.min(Math.max(Number(retryAfter) || FLUSH_INTERVAL_MS / 1000, 1), MAX_RETRY_AFTER_SECONDS);
  clearTimeout(timer);
  timer = setTimeout(() => flushEvents(), seconds * 1000);
}

/** Drops what is queued, unsent (for tests). */
export function discardEvents(): void {
  clearTimeout(timer);
  timer = undefined;
  queue = [];
}

const encoder = new TextEncoder();

/** The next batch off the queue as JSON: at most a batch's count of events and its bytes. */
function takeBatch(): { body: string; events: BrowserEvent[] } {
  const taken: BrowserEvent[] = [];
  const events: string[] = [];
  let bytes = BATCH_ENVELOPE_BYTES;
  while (queue.length > 0 && events.length < MAX_EVENTS_PER_BATCH) {
    const json = JSON.stringify(queue[0]);
    const size = encoder.encode(json).length + (events.length > 0 ? 1 : 0);
    if (events.length > 0 && bytes + size > MAX_EVENT_BATCH_BYTES) break;
    events.push(json);
    bytes += size;
    taken.push(queue.shift()!);
  }
  return { body: `${ENVELOPE_START}${events.join(',')}]}`, events: taken };
}

function send({ body, events }: { body: string; events: BrowserEvent[] }, beacon: boolean): void {
  try {
    if (beacon && typeof navigator.sendBeacon === 'function') {
      if (!navigator.sendBeacon(EVENTS_PATH, new Blob([body], { type: 'application/json' })))
        console.debug('events dropped: the browser refused the beacon');
      return;
    }
    void fetch(EVENTS_PATH, { method: 'POST', keepalive: true, headers: apiHeaders(false), body })
      .then((res) => {
        if (res.status === 503 || res.status === 429) sendAgainLater(events, res.headers.get('Retry-After'));
        else if (!res.ok) console.debug(`events dropped: ${res.status}`);
      })
      .catch((err: unknown) => console.debug('events dropped', err));
  } catch (err) {
    console.debug('events dropped', err);
  }
}

/** A page being hidden may never come back (closed, or discarded in the background): what is queued goes now. */
function listenForHide(): void {
  if (listening) return;
  listening = true;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushEvents({ beacon: true });
  });
  window.addEventListener('pagehide', () => flushEvents({ beacon: true }));
}
