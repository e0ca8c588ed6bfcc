import type { EventDocument } from '../../../shared/schemas/documents.js';
import { TBD_LOCAL_TIME } from '../../../shared/rules/constants.js';
import type { DayInfo } from './catalog-records.js';
import type { Random } from './random.js';
import { addDays, type LocalDateTime } from './zoned-time.js';

/** Deliberate edge cases, as shares of the catalog with a floor so small catalogs have them too. */
const EDGE_CASES = {
  timeTbd: { share: 0.01, min: 10 },
  dateTbd: { share: 0.002, min: 3 },
  farFuture: { share: 0.0005, min: 3 },
  past: { share: 0.001, min: 3 },
} as const;
export type EdgeCase = keyof typeof EDGE_CASES;
/** RULES 4.2: a time of 03:30 AM means the time is not set yet. */
const [tbdHour, tbdMinute] = TBD_LOCAL_TIME.split(':').map(Number) as [number, number];
const TBD_TIME = { hour: tbdHour, minute: tbdMinute };

/** Which of the `budget` non-league events (by ordinal) become which edge case in a catalog of `target`. */
export function placeEdgeCases(rng: Random, target: number, budget: number): Map<number, EdgeCase> {
  const edgeByOrdinal = new Map<number, EdgeCase>();
  for (const [kind, { share, min }] of Object.entries(EDGE_CASES) as [EdgeCase, { share: number; min: number }][]) {
    const want = Math.max(min, Math.round(target * share));
    let placed = 0;
    while (placed < want && edgeByOrdinal.size < budget) {
      const o = rng.int(0, budget - 1);
      if (!edgeByOrdinal.has(o)) {
        edgeByOrdinal.set(o, kind);
        placed++;
      }
    }
  }
  return edgeByOrdinal;
}

/**
 * An event's local start (null: date not set) and status: the day and time planned, turned into its edge case
 * if it is one; any other event is now and then postponed, rescheduled or cancelled.
 */
export function startAndStatus(
  edge: EdgeCase | undefined,
  day: DayInfo,
  time: readonly [number, number],
  startDate: { year: number; month: number; day: number },
  rng: Random,
): { local: LocalDateTime | null; status: EventDocument['event_status'] } {
  let local: LocalDateTime | null = { year: day.year, month: day.month, day: day.day, hour: time[0], minute: time[1] };
  let status: EventDocument['event_status'] = 'scheduled';
  if (edge === 'timeTbd') local = { ...local, ...TBD_TIME };
  if (edge === 'past') local = { ...addDays(startDate, -rng.int(1, 3)), hour: time[0], minute: time[1] };
  if (edge === 'farFuture') local = { ...local, year: local.year + rng.int(11, 20) };
  if (edge === 'dateTbd') {
    local = null;
    status = rng.chance(0.5) ? 'postponed' : 'scheduled';
  } else if (rng.chance(0.004)) {
    status = rng.pick(['postponed', 'rescheduled', 'cancelled'] as const);
  }
  return { local, status };
}
