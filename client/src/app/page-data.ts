import type { QueryClient } from '@tanstack/react-query';
import type { PageContextValue } from './page-context.js';
import { packTables, unpackTables } from '../../../shared/schemas/page-data-tables.js';

/**
 * The element the server writes a rendered page's data into: JSON, never run as script (the CSP allows none inline).
 */
export const PAGE_DATA_ID = 'page-data';

/** One API answer the page was rendered with, under the client's query key. */
export interface PageAnswer {
  key: readonly unknown[];
  data: unknown;
}

/**
 * What a server-rendered page carries for the client that hydrates it: each answer's key and data only. TanStack
 * Query's dehydrated state would add some 330 bytes of bookkeeping per answer (hashes, counters, timestamps) that
 * the client sets for itself when it seeds its cache (`seedPageAnswers`).
 */
export interface PageData {
  answers: PageAnswer[];
  page: PageContextValue;
}

/**
 * Fills the browser's query client with the page's answers, each counted as fetched `now`: a page replayed from
 * the server's cache is as fresh as the cache's rules allow, and refetching it at once would only redraw what the
 * shopper is reading (and might switch an experiment's variation mid-view). So the page carries no fetch time.
 */
export function seedPageAnswers(queryClient: QueryClient, answers: readonly PageAnswer[], now = Date.now()): void {
  for (const { key, data } of answers) queryClient.setQueryData(key, data, { updatedAt: now });
}

/** The seat map layouts the page's answers name (an event's listings answer's `seatMap.layout`), as written. */
export function seatMapsNamed(answers: readonly { data: unknown }[]): unknown[] {
  return answers.flatMap(({ data }) => {
    const layout = (data as { seatMap?: { layout?: unknown } } | null)?.seatMap?.layout;
    return layout === undefined ? [] : [layout];
  });
}

/** A layout row as the page data carries it: only the fields the packing reads or writes are named. */
interface RowData {
  items?: unknown[];
  tabs?: { id: string; items: unknown[] }[];
  defaultTab?: string;
  /** Packed: each distinct card of the row's tabs once, the tabs' items being indexes into it. */
  tabCards?: unknown[];
}

const isLayoutKey = (key: readonly unknown[]) => key[0] === 'layout';
const rowsOf = (data: unknown): RowData[] | undefined => {
  const rows = (data as { rows?: unknown } | null | undefined)?.rows;
  return Array.isArray(rows) ? (rows as RowData[]) : undefined;
};
const firstTab = (row: RowData) => row.tabs?.find((tab) => tab.id === row.defaultTab) ?? row.tabs?.[0];

/**
 * Whether two JSON values write the same text: the same keys in the same order, the same values. Compared in place:
 * writing every card out to compare them cost more than the rest of the page data.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  return keys.every(
    (key, i) => key === others[i] && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
  );
}

/**
 * An events row with tabs lists the same events several times (a game this week is in every tab, and `items` are
 * the first tab's): the page carries each card once and the tabs as indexes into them, and `items` not at all
 * when they are the first tab's. `unpackRow` gives back the very same row, so hydration draws what the server did.
 */
function packRow(row: RowData): RowData {
  if (!row.tabs || row.tabs.length === 0) return row;
  const cards: unknown[] = [];
  // Compared only with the cards of the same id: a row's tabs may hold hundreds of cards.
  const byId = new Map<unknown, number[]>();
  const tabs = row.tabs.map((tab) => ({
    ...tab,
    items: tab.items.map((card) => {
      const id = (card as { id?: unknown } | null)?.id;
      const same = byId.get(id) ?? [];
      const found = same.find((i) => sameJson(cards[i], card));
      if (found !== undefined) return found;
      const i = cards.push(card) - 1;
      byId.set(id, [...same, i]);
      return i;
    }),
  }));
  const { items, ...rest } = row;
  const first = firstTab(row);
  const itemsFromTab = first !== undefined && sameJson(items, first.items);
  return { ...rest, ...(itemsFromTab ? {} : { items }), tabs: tabs as unknown as RowData['tabs'], tabCards: cards };
}

function unpackRow(row: RowData): RowData {
  const { tabCards, ...rest } = row;
  if (!tabCards || !rest.tabs) return row;
  const tabs = rest.tabs.map((tab) => ({ ...tab, items: (tab.items as number[]).map((i) => tabCards[i]) }));
  const unpacked = { ...rest, tabs };
  return { ...unpacked, items: rest.items ?? firstTab(unpacked)?.items ?? [] };
}

/** The page data with each layout answer's rows packed (`packRow`) or unpacked. */
function withRows(data: PageData, each: (row: RowData) => RowData): PageData {
  return {
    ...data,
    answers: data.answers.map((answer) => {
      const rows = isLayoutKey(answer.key) ? rowsOf(answer.data) : undefined;
      return rows ? { ...answer, data: { ...(answer.data as object), rows: rows.map(each) } } : answer;
    }),
  };
}

/**
 * The page data as JSON safe inside a `<script>` element: `<` is escaped, so no `</script>` or `<!--` in an
 * answer (an event's name, say) can end the element early. Layout rows go packed (`packRow`), and every list of
 * objects as a table (`packTables`).
 */
export function pageDataJson(data: PageData): string {
  return JSON.stringify(packTables(withRows(data, packRow))).replace(UNSAFE_IN_SCRIPT, (c) => ESCAPED[c]!);
}

/** What may not stand as itself in a script element's JSON, in one pass, and how it is written instead. */
const UNSAFE_IN_SCRIPT = /[<\u2028\u2029]/g;
const ESCAPED: Record<string, string> = { '<': '\\u003c', '\u2028': '\\u2028', '\u2029': '\\u2029' };

/** The page data from the JSON `pageDataJson` wrote: its tables and layout rows unpacked, each as the API gave it. */
export function parsePageData(json: string): PageData {
  return withRows(unpackTables(JSON.parse(json)) as PageData, unpackRow);
}

/** The page data the server wrote, or null for a page it did not render. */
export function readPageData(doc: Document): PageData | null {
  const text = doc.getElementById(PAGE_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    return parsePageData(text);
  } catch {
    return null;
  }
}
