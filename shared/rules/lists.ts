import type { EventDocument } from '../schemas/documents.js';
import { MAX_YEARS_AHEAD } from './constants.js';
import { parseLocalTimestamp, venueLocalToEpochMs } from './local-time.js';
import type { WarnLogger } from '../logger.js';

export type DatedEvent = Pick<EventDocument, 'event_local_timestamp' | 'venue_time_zone_offset'>;

/** The start instant (ms): the venue-local start minus the venue's offset; null when undated. */
export function eventStartMs(event: DatedEvent): number | null {
  const local = parseLocalTimestamp(event.event_local_timestamp);
  return local ? venueLocalToEpochMs(local, event.venue_time_zone_offset) : null;
}

/** RULES 5.2: events more than 10 years ahead are dropped; undated events stay. */
export function dropFarFuture<E extends DatedEvent>(events: readonly E[], now: Date): E[] {
  const horizon = new Date(now.getTime());
  horizon.setUTCFullYear(horizon.getUTCFullYear() + MAX_YEARS_AHEAD);
  const limit = horizon.getTime();
  return events.filter((e) => {
    const start = eventStartMs(e);
    return start === null || start <= limit;
  });
}

/**
 * RULES 4.3: the one rule for "started": an event has started from its start instant on (`now >= start`, to the
 * millisecond); an event with no date has not. The sale stops (10.2), the home page logs it as stale (5.3), its page
 * is gone (2.6) and its orders complete (10.9) by this rule alone.
 */
export function hasStarted(startMs: number | null, now: Date | number): boolean {
  return startMs !== null && startMs <= (typeof now === 'number' ? now : now.getTime());
}

/** RULES 4.3, 5.3: an event that has started (`hasStarted`): its start, adjusted by the venue offset, is reached. */
export function isStale(event: DatedEvent, now: Date): boolean {
  return hasStarted(eventStartMs(event), now);
}

export const STALE_EVENT_MESSAGE = 'stale event listed on the home page';

/** RULES 5.3: each stale home-page event is logged and stays listed. */
export function logStaleEvents<E extends DatedEvent & Pick<EventDocument, 'event_id'>>(
  events: readonly E[],
  now: Date,
  logger: WarnLogger,
): readonly E[] {
  for (const event of events) {
    if (isStale(event, now)) {
      logger.warn(
        {
          eventId: event.event_id,
          localStart: event.event_local_timestamp,
          venueOffsetHours: event.venue_time_zone_offset,
        },
        STALE_EVENT_MESSAGE,
      );
    }
  }
  return events;
}
