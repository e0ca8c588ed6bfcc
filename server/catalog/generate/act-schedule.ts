import type { CategoryDefinition } from '../../../shared/catalog/taxonomy.js';
import type { DayInfo } from './catalog-records.js';
import type { Random } from './random.js';

/** One date of an act: the day, the local start time, and whether the act moves to another venue with it. */
export interface Slot {
  day: DayInfo;
  time: [number, number];
  newVenue: boolean;
}

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
    // Eight shows a week: Tuesday to Sunday evenings plus Wednesday and Saturday matinees; Monday dark.
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
      const times: [number, number][] =
        day.weekday === 1
          ? []
          : day.weekday === 3 || day.weekday === 6
            ? [
                [14, 0],
                [20, 0],
              ]
            : day.weekday === 0
              ? [[15, 0]]
              : [[19, 30]];
      for (const time of times) {
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
    const time: [number, number] = category.slug === 'golf' ? [8, 0] : category.slug === 'racing' ? [15, 0] : [12, 0];
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
    let time: [number, number] = rng.pick([
      [19, 30],
      [20, 0],
      [19, 0],
      [20, 30],
    ] as [number, number][]);
    // Club nights run late; some start after midnight, which is the next calendar day locally.
    if (late && rng.chance(0.5))
      time = rng.pick([
        [22, 0],
        [23, 0],
        [23, 30],
        [0, 30],
      ] as [number, number][]);
    if (category.slug === 'comedy' && rng.chance(0.3)) time = [21, 45];
    yield { day, time, newVenue: true };
    emitted++;
    dayIndex += rng.int(1, 3);
  }
}
