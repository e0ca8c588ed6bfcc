import type { EventCard as EventCardData } from '../../../../schemas/cards.js';
import { EventCard } from '../../features/cards/cards.js';
import { RowSkeleton } from '../../features/rows/rows.js';
import { ApiError } from '../../lib/api.js';
import { NotFoundPage } from './not-found-page.js';

/** What every API-backed page shows while loading, when it fails, and for a list of events. */

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

export function EventList({ events, empty }: { events: readonly EventCardData[]; empty: string }) {
  if (events.length === 0) return <p>{empty}</p>;
  return (
    <ul className="event-list">
      {events.map((e) => (
        <li key={e.id}>
          <EventCard card={e} />
        </li>
      ))}
    </ul>
  );
}
