import type { CategoryDefinition } from '../../../shared/catalog/taxonomy.js';
import type { DayInfo } from './catalog-records.js';
import type { Random } from './random.js';

/** One date of an act: the day, the local start time, and whether the act moves to another venue with it. */
export interface Slot {
  day: DayInfo;
  time: Time;
  newVenue: boolean;
}

type Time = readonly [number, number];

/**
 * Eight shows a week, by weekday (0 = Sunday): Tuesday to Sunday evenings plus Wednesday and Saturday matinees;
 * Monday dark.
 */
const RESIDENCY_TIMES: readonly (readonly Time[])[] = [
  [[15, 0]],
  [],
  [[19, 30]],
  [
    [14, 0],
    [20, 0],
  ],
  [[19, 30]],
  [[19, 30]],
  [
    [14, 0],
    [20, 0],
  ],
];
const TOUR_TIMES: readonly Time[] = [
  [19, 30],
  [20, 0],
  [19, 0],
  [20, 30],
];
/** Club nights run late; some start after midnight, which is the next calendar day locally. */
const CLUB_TIMES: readonly Time[] = [
  [22, 0],
  [23, 0],
  [23, 30],
  [0, 30],
];
const LATE_COMEDY_TIME: Time = [21, 45];

/**
 * The dates and times of one act's events, by the shape of its category. Tours and runs begin on any day of the
 * window and carry on from its first day when they pass its last: the window is taken as a circle, so every week of
 * it, the first as much as any other, has as many acts under way (a schedule cut at the window's start would have few
 * in its first weeks, only the acts that happened to open then).
 */
export function* schedule(
  rng: Random,
  category: CategoryDefinition,
  count: number,
  days: readonly DayInfo[],
  /** Where in the window the act's tour or run begins, as a share of it ([0, 1)); drawn when not given. */
  opening = rng.next(),
): Generator<Slot> {
  let emitted = 0;
  if (category.schedule === 'residency') {
    const longRun = ['broadway', 'off-broadway', 'west-end', 'las-vegas-shows', 'cirque-du-soleil'].includes(
      category.slug,
    );
    let dayIndex = Math.floor(opening * days.length);
    let newVenue = true;
    let runLeft = longRun ? Infinity : rng.int(16, 64);
    while (emitted < count) {
      // Past the window's last day the run goes on from its first, in another theater.
      if (dayIndex >= days.length) {
        dayIndex %= days.length;
        newVenue = true;
      }
      const day = days[dayIndex++]!;
      for (const time of RESIDENCY_TIMES[day.weekday]!) {
        if (emitted >= count) break;
        yield { day, time, newVenue };
        newVenue = false;
        emitted++;
        if (--runLeft <= 0) {
          runLeft = rng.int(16, 64);
          newVenue = true;
          dayIndex += rng.int(3, 14);
        }
      }
    }
    return;
  }
  if (category.schedule === 'tournament') {
    const length = category.slug === 'tennis' ? 7 : category.slug === 'golf' ? 4 : 3;
    const time: Time = category.slug === 'golf' ? [8, 0] : category.slug === 'racing' ? [15, 0] : [12, 0];
    while (emitted < count) {
      let dayIndex = rng.int(0, days.length - length);
      for (let d = 0; d < length && emitted < count; d++, emitted++) {
        yield { day: days[dayIndex++]!, time, newVenue: d === 0 };
      }
    }
    return;
  }
  // Tours: legs of dates one to three days apart, a new city each night.
  const late = category.slug === 'electronic';
  let dayIndex = Math.floor(opening * days.length);
  while (emitted < count) {
    if (dayIndex >= days.length) dayIndex %= days.length;
    const day = days[dayIndex]!;
    let time = rng.pick(TOUR_TIMES);
    if (late && rng.chance(0.5)) time = rng.pick(CLUB_TIMES);
    if (category.slug === 'comedy' && rng.chance(0.3)) time = LATE_COMEDY_TIME;
    yield { day, time, newVenue: true };
    emitted++;
    dayIndex += rng.int(1, 3);
  }
}
