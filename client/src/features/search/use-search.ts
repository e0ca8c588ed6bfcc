import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { isSubmitKey, normalizeSearchQuery, shouldSearch } from '../../../../shared/rules/format.js';
import { searchResultsPath } from '../../../../shared/rules/site-paths.js';
import { useFlag } from '../../lib/flags.js';
import type { SuggestResponse } from '../../lib/schemas.js';
import {
  RECENT_TRENDING_FLAG,
  SEARCH_DEBOUNCE_MS,
  fetchSuggestions,
  searchKeys,
  type RecentActivityItem,
  type TrendingPerformer,
} from './search-api.js';
import { useRecentTrending } from './use-recent-trending.js';

export type SearchOptionKind = 'city' | 'performer' | 'venue' | 'recent' | 'trending';

export interface SearchOption {
  /** DOM id, also the value of aria-activedescendant. */
  id: string;
  kind: SearchOptionKind;
  label: string;
  detail?: string;
  image?: string;
  url: string;
}

export interface SearchGroup {
  id: string;
  label: string;
  options: SearchOption[];
}

/** What the popup shows: nothing, suggestions, the empty-search prompt, or recent and trending searches. */
export type SearchView = 'none' | 'results' | 'no-results' | 'discover';

export interface SearchController {
  ids: { input: string; listbox: string };
  inputValue: string;
  /** The lower-cased query (RULES 7.4). */
  query: string;
  open: boolean;
  /** True while the listbox is displayed (aria-expanded). */
  expanded: boolean;
  view: SearchView;
  groups: SearchGroup[];
  activeId: string | null;
  /** Text for the polite live region. */
  status: string;
  setInputValue: (value: string) => void;
  openPanel: () => void;
  closePanel: () => void;
  pick: (option: SearchOption) => void;
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => void;
}

export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** The next active index when moving by `delta` through `count` options, wrapping; -1 means none. */
export function moveActiveIndex(current: number, count: number, delta: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return delta === 1 ? 0 : count - 1;
  return (current + delta + count) % count;
}

export function suggestionGroups(baseId: string, data: SuggestResponse): SearchGroup[] {
  const groups: SearchGroup[] = [
    {
      // A city the query names ("ny", "la"): its results page.
      id: `${baseId}-cities`,
      label: 'Cities',
      options: (data.cities ?? []).map((c) => ({
        id: `${baseId}-city-${c.id}`,
        kind: 'city' as const,
        label: c.text,
        url: c.url,
      })),
    },
    {
      id: `${baseId}-performers`,
      label: 'Performers',
      options: data.performers.map((p) => ({
        id: `${baseId}-performer-${p.id}`,
        kind: 'performer' as const,
        label: p.text,
        ...(p.subtitle ? { detail: p.subtitle } : {}),
        ...(p.pathPicture ? { image: p.pathPicture } : {}),
        url: p.url,
      })),
    },
    {
      id: `${baseId}-venues`,
      label: 'Venues',
      options: data.venues.map((v) => ({
        id: `${baseId}-venue-${v.id}`,
        kind: 'venue' as const,
        label: v.text,
        ...(v.subtitle ? { detail: v.subtitle } : {}),
        ...(v.pathPicture ? { image: v.pathPicture } : {}),
        url: v.url,
      })),
    },
  ];
  return groups.filter((g) => g.options.length > 0);
}

export function discoverGroups(
  baseId: string,
  recent: RecentActivityItem[],
  trending: TrendingPerformer[],
): SearchGroup[] {
  const groups: SearchGroup[] = [
    {
      id: `${baseId}-recent`,
      label: 'Recent searches',
      options: recent.map((r) => ({
        id: `${baseId}-recent-${r.type}-${r.id}`,
        kind: 'recent' as const,
        label: r.name,
        detail: r.type === 'event' ? 'Event' : 'Performer',
        ...(r.image ? { image: r.image } : {}),
        url: r.url,
      })),
    },
    {
      id: `${baseId}-trending`,
      label: 'Trending',
      options: trending.map((t) => ({
        id: `${baseId}-trending-${t.id}`,
        kind: 'trending' as const,
        label: t.name,
        detail: t.eventCount,
        ...(t.pathPicture ? { image: t.pathPicture } : {}),
        url: t.url,
      })),
    },
  ];
  return groups.filter((g) => g.options.length > 0);
}

function countText(n: number): string {
  return `${n} ${n === 1 ? 'result' : 'results'}`;
}

const NONE: SearchGroup[] = [];

/**
 * The search box's state (RULES 7.2 search dropdown, 7.4 search state): input text, open flag, debounced
 * suggestions, recent and trending searches behind the experiment flag, and the combobox keyboard model.
 */
export function useSearch({ onNavigate }: { onNavigate?: () => void } = {}): SearchController {
  const navigate = useNavigate();
  const baseId = useId();
  const [inputValue, setInputValueState] = useState('');
  const [open, setOpen] = useState(false);
  // The experiment service starts as the box first opens (RULES 9.1): the flag is off until it has answered.
  const flagOn = useFlag(RECENT_TRENDING_FLAG, open);
  const [activeKey, setActiveKey] = useState<string | null>(null);

  const query = normalizeSearchQuery(inputValue);
  const debounced = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  // Clearing resets at once instead of after the debounce (RULES 7.4).
  const searchFor = shouldSearch(query) ? debounced : '';
  const searching = shouldSearch(searchFor);

  // Changing the key drops the old query's only observer, which aborts its fetch through `signal`;
  // answers are stored per key, so a late one can never replace a newer query's results.
  const suggest = useQuery({
    queryKey: searchKeys.suggest(searchFor),
    queryFn: ({ signal }) => fetchSuggestions(searchFor, signal),
    enabled: searching,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 5 * 60_000,
  });

  const discover = useRecentTrending(flagOn && open && query === '', query !== '');

  const resultGroups = useMemo(
    () => (searching && suggest.data && !suggest.isError ? suggestionGroups(baseId, suggest.data) : null),
    [searching, suggest.data, suggest.isError, baseId],
  );
  const discoverList = useMemo(
    () =>
      flagOn && query === '' && discover.ready ? discoverGroups(baseId, discover.recent, discover.trending) : NONE,
    [flagOn, query, discover.ready, discover.recent, discover.trending, baseId],
  );

  let available: SearchGroup[] = NONE;
  let availableView: SearchView = 'none';
  if (query === '') {
    available = discoverList;
    availableView = available.length > 0 ? 'discover' : 'none';
  } else if (resultGroups) {
    available = resultGroups;
    availableView = available.length > 0 ? 'results' : 'no-results';
  }
  const view = open ? availableView : 'none';
  const groups = open ? available : NONE;
  const options = useMemo(() => available.flatMap((g) => g.options), [available]);
  const activeIndex = activeKey === null ? -1 : options.findIndex((o) => o.id === activeKey);
  const active = open && activeIndex >= 0 ? options[activeIndex] : undefined;

  const closePanel = useCallback(() => {
    setOpen(false);
    setActiveKey(null);
  }, []);
  const openPanel = useCallback(() => setOpen(true), []);

  const setInputValue = useCallback((value: string) => {
    setInputValueState(value);
    setActiveKey(null);
    setOpen(true);
  }, []);

  const pick = useCallback(
    (option: SearchOption) => {
      setInputValueState('');
      closePanel();
      onNavigate?.();
      void navigate(option.url);
    },
    [closePanel, navigate, onNavigate],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const delta = event.key === 'ArrowDown' ? 1 : -1;
      const from = open ? activeIndex : -1;
      setOpen(true);
      setActiveKey(options[moveActiveIndex(from, options.length, delta)]?.id ?? null);
      return;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      if (open) closePanel();
      else setInputValueState('');
      return;
    }
    const key = {
      key: event.key,
      code: event.code,
      keyCode: event.keyCode,
      isComposing: event.nativeEvent.isComposing,
    };
    if (isSubmitKey(key)) {
      event.preventDefault();
      if (active) {
        pick(active);
      } else if (shouldSearch(query)) {
        closePanel();
        onNavigate?.();
        void navigate(searchResultsPath(query));
      }
    }
  };

  let status = '';
  if (view === 'results' || view === 'discover') status = countText(options.length);
  else if (view === 'no-results') status = 'No results, press Enter to search';

  return {
    ids: { input: `${baseId}-input`, listbox: `${baseId}-listbox` },
    inputValue,
    query,
    open,
    expanded: groups.length > 0,
    view,
    groups,
    activeId: active?.id ?? null,
    status,
    setInputValue,
    openPanel,
    closePanel,
    pick,
    onKeyDown,
  };
}
