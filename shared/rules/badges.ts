import type { Badge } from '../schemas/cards.js';
import type { EventDocument } from '../schemas/documents.js';
import {
  HOT_EVENT_MIN_CARTS_D1,
  HOT_EVENT_MIN_ORDERS_D1_EXCLUSIVE,
  PEOPLE_VIEWING_MIN,
  TICKETS_LEFT_MAX_EXCLUSIVE,
  TICKETS_LEFT_MIN_EXCLUSIVE,
} from './constants.js';
import { formatCount } from './format.js';

export type BadgeSignals = Pick<
  EventDocument,
  'event_orders_d1' | 'event_cart_d1' | 'event_mpv_d1' | 'tickets_available'
>;

export const SELLING_FAST_LABEL = 'Selling fast';

/**
 * RULES 5.1: hotEvent with orders in the last day and at least 5 carts in it; otherwise peopleViewing with at
 * least 10 viewers; then, with at most one badge so far, ticketLeft when 1 < tickets available < 100.
 */
export function eventBadges(signals: BadgeSignals): Badge[] {
  const badges: Badge[] = [];
  if (signals.event_orders_d1 > HOT_EVENT_MIN_ORDERS_D1_EXCLUSIVE && signals.event_cart_d1 >= HOT_EVENT_MIN_CARTS_D1) {
    badges.push({ type: 'hotEvent', label: SELLING_FAST_LABEL });
  } else if (signals.event_mpv_d1 >= PEOPLE_VIEWING_MIN) {
    badges.push({ type: 'peopleViewing', label: `${formatCount(signals.event_mpv_d1, 'person', 'people')} viewing` });
  }
  const tickets = signals.tickets_available;
  if (badges.length <= 1 && tickets > TICKETS_LEFT_MIN_EXCLUSIVE && tickets < TICKETS_LEFT_MAX_EXCLUSIVE) {
    badges.push({ type: 'ticketLeft', label: `Only ${formatCount(tickets, 'ticket', 'tickets')} left` });
  }
  return badges;
}
