import type { RecentActivityItem } from '../../../../shared/schemas/activity.js';
import { api, reportClientError } from '../../lib/api.js';
import type { SuggestResponse } from '../../lib/schemas.js';
import { getStoredToken } from '../../lib/session.js';
import type { TrendingPerformer } from './search-schemas.js';

// RULES 7.5: 500 ms
export const SEARCH_DEBOUNCE_MS = 500;
// RULES 7.9: recent/trending give up after 5 s
export const RECENT_TRENDING_WAIT_MS = 5_000;
export const RECENT_TRENDING_FLAG = 'recent_trending_search';

// RULES 14.3, 14.6, 14.8: log wording
export const SEARCH_ERROR_MESSAGE = 'SEARCH ERROR';
export const NO_TOKEN_MESSAGE = 'No token in LocalStorage.';
export const RECENT_FAILURE_MESSAGE = 'Could not fetch customers latest performers';

export const searchKeys = {
  suggest: (query: string) => ['search', 'suggest', query] as const,
  recent: ['search', 'recent-activities'] as const,
  trending: ['search', 'trending'] as const,
};

export type { RecentActivityItem, TrendingPerformer };
/** The search box's schemas come with its first fetch: the first screen carries no zod (`AnswerSchema`). */
const schemas = () => import('./search-schemas.js');
const suggestSchema = () => schemas().then((m) => m.SuggestResponseSchema);
const recentSchema = () => schemas().then((m) => m.RecentActivitiesSchema);
const trendingSchema = () => schemas().then((m) => m.TrendingSchema);

function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error instanceof DOMException && error.name === 'AbortError');
}

export async function fetchSuggestions(query: string, signal: AbortSignal): Promise<SuggestResponse> {
  try {
    // Public and edge-cached, so no bearer token.
    return await api(`/api/suggest?q=${encodeURIComponent(query)}`, suggestSchema, { signal, token: false });
  } catch (error) {
    if (!isAbort(error, signal)) {
      console.error(SEARCH_ERROR_MESSAGE, error);
      reportClientError(error, SEARCH_ERROR_MESSAGE);
    }
    throw error;
  }
}

export async function fetchRecentActivities(signal: AbortSignal): Promise<RecentActivityItem[]> {
  const token = getStoredToken();
  if (!token) {
    // RULES 14.6: logged and skipped
    console.info(NO_TOKEN_MESSAGE);
    return [];
  }
  try {
    const { data } = await api('/api/CustomerActivity/recent-activities', recentSchema, {
      signal,
      headers: { Authorization: `Bearer ${token}` },
    });
    return data;
  } catch (error) {
    // RULES 14.7: a cancelled request is logged quietly
    if (isAbort(error, signal)) console.debug('Recent-activity request cancelled');
    else console.warn(RECENT_FAILURE_MESSAGE, error);
    throw error;
  }
}

export async function fetchTrending(signal: AbortSignal): Promise<TrendingPerformer[]> {
  try {
    const { performers } = await api('/api/trending', trendingSchema, { signal, token: false });
    return performers;
  } catch (error) {
    if (!isAbort(error, signal)) console.warn('Could not fetch trending performers', error);
    throw error;
  }
}
