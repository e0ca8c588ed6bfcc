import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getStoredToken, onGuestToken } from '../../lib/session.js';
import {
  NO_TOKEN_MESSAGE,
  RECENT_TRENDING_WAIT_MS,
  fetchRecentActivities,
  fetchTrending,
  searchKeys,
  type RecentActivityItem,
  type TrendingPerformer,
} from './search-api.js';

const NO_RECENT: RecentActivityItem[] = [];
const NO_TRENDING: TrendingPerformer[] = [];

export interface RecentTrending {
  /** False while still waiting for the token or either list, at most RECENT_TRENDING_WAIT_MS. */
  ready: boolean;
  recent: RecentActivityItem[];
  trending: TrendingPerformer[];
}

/**
 * RULES 7.9, recent and trending search, without polling: the guest token is awaited through `onGuestToken`,
 * both lists load through TanStack Query, and after the 5 s of RULES 7.9 whatever has loaded is shown.
 */
export function useRecentTrending(active: boolean, typing: boolean): RecentTrending {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(getStoredToken);
  const [expired, setExpired] = useState(false);

  useEffect(() => {
    if (!active || token) return;
    return onGuestToken(setToken);
  }, [active, token]);

  useEffect(() => {
    if (!active || expired) return;
    const timer = setTimeout(() => setExpired(true), RECENT_TRENDING_WAIT_MS);
    return () => clearTimeout(timer);
  }, [active, expired]);

  useEffect(() => {
    // RULES 14.6: still no token when the wait ends, so recent activity is skipped
    if (expired && !token) console.info(NO_TOKEN_MESSAGE);
  }, [expired, token]);

  // RULES 7.4: a new query cancels any in-flight recent-activity request
  useEffect(() => {
    if (typing) void queryClient.cancelQueries({ queryKey: searchKeys.recent });
  }, [typing, queryClient]);

  const recent = useQuery({
    queryKey: searchKeys.recent,
    queryFn: ({ signal }) => fetchRecentActivities(signal),
    enabled: active && token !== null,
    retry: false,
    staleTime: 0,
  });
  const trending = useQuery({
    queryKey: searchKeys.trending,
    queryFn: ({ signal }) => fetchTrending(signal),
    enabled: active,
    staleTime: 5 * 60_000,
  });

  const settled = (q: { isSuccess: boolean; isError: boolean }) => q.isSuccess || q.isError;
  return {
    ready: expired || (settled(recent) && settled(trending)),
    recent: recent.data ?? NO_RECENT,
    trending: trending.data ?? NO_TRENDING,
  };
}
