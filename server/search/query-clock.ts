/**
 * "Now" as search queries see it: floored to 5 minutes, so the same question asked within those minutes is
 * the same query and shares one cache entry. An event that began in the last few minutes may still be listed
 * as upcoming; the home page logs such events as stale (RULES 4.7, 5.3).
 */
export const QUERY_CLOCK_GRANULARITY_MS = 5 * 60_000;

export function queryClock(now: Date = new Date()): Date {
  return new Date(Math.floor(now.getTime() / QUERY_CLOCK_GRANULARITY_MS) * QUERY_CLOCK_GRANULARITY_MS);
}
