import type { SaleState } from '../../../shared/schemas/commerce.js';
import type { EventDocument } from '../../../shared/schemas/documents.js';
import { AppError } from '../../http/errors.js';
import { eventStartMs, hasStarted } from '../../../shared/rules/lists.js';

type SaleFields = Pick<EventDocument, 'event_status' | 'event_local_timestamp' | 'venue_time_zone_offset'>;

/**
 * Whether an event's tickets may still be sold at `now`: not once it is cancelled, and not once it has
 * started, its start being the venue-local time adjusted by the venue's offset (RULES 4.3, 10.2). An event with no
 * date yet (postponed, or not scheduled yet) sells, with its date to be announced.
 */
export function saleState(event: SaleFields, now: Date): SaleState {
  if (event.event_status === 'cancelled') {
    return {
      onSale: false,
      code: 'event_cancelled',
      message: 'This event is cancelled; its tickets are no longer sold',
    };
  }
  const start = eventStartMs(event);
  if (start === null) return { onSale: true, dateToBeAnnounced: true };
  if (hasStarted(start, now)) {
    return {
      onSale: false,
      code: 'event_started',
      message: 'This event has already started; its tickets are no longer sold',
    };
  }
  return { onSale: true, dateToBeAnnounced: false };
}

/** The 409 for a sale the window no longer allows, or nothing. */
export function assertOnSale(event: SaleFields, now: Date): void {
  const state = saleState(event, now);
  if (!state.onSale) throw new AppError(409, state.code, state.message);
}
