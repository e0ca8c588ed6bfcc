import type { UseQueryResult } from '@tanstack/react-query';
import { useDeferredValue, type ReactElement } from 'react';
import { RowSkeleton } from '../../features/rows/rows.js';
import { ApiError } from '../../lib/api.js';
import { NotFoundPage } from './not-found-page.js';

/** What every API-backed page shows while loading and when it fails. */

export function PageLoading() {
  return (
    <div aria-busy="true">
      <RowSkeleton />
    </div>
  );
}

/** An unknown or malformed entity is the not-found page; anything else a short retry message. */
export function PageFailed({ error }: { error: unknown }) {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return <NotFoundPage />;
  return <p role="alert">We could not load this page. Please try again.</p>;
}

/**
 * A page query's answer as the page draws it, or the `fallback` to show instead (loading, or the failure).
 * A new answer renders in a transition, in slices that leave the main thread free, rather than in the
 * query's synchronous update; the loading state stays until it is in.
 */
export function usePageAnswer<T>(
  query: UseQueryResult<T>,
): { data: T; fallback: null } | { data: undefined; fallback: ReactElement } {
  const data = useDeferredValue(query.data);
  if (query.isError) return { data: undefined, fallback: <PageFailed error={query.error} /> };
  if (data === undefined) return { data: undefined, fallback: <PageLoading /> };
  return { data, fallback: null };
}
