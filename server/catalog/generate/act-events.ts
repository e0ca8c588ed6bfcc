import type { CategoryDefinition } from '../../../shared/catalog/taxonomy.js';
import { schedule } from './act-schedule.js';
import type { DayInfo, PerformerRec, PerformerRoster } from './catalog-records.js';
import type { EventWriter } from './event-writer.js';
import type { VenueDays } from './league-schedule.js';
import type { NameSource } from './names.js';
import type { Random } from './random.js';
import type { VenuePools } from './venue-pools.js';

const MIN_PERFORMERS_PER_CATEGORY = 12;

const BASE_PRICE: Record<string, number> = {
  classical: 42,
  comedy: 38,
  festivals: 149,
  broadway: 89,
  'off-broadway': 59,
  'west-end': 45,
  'las-vegas-shows': 69,
  'cirque-du-soleil': 75,
  opera: 65,
  ballet: 55,
  wwe: 35,
  boxing: 65,
  mma: 60,
  racing: 45,
  golf: 70,
  rodeo: 30,
  tennis: 55,
};

/** Splits `budget` events over the categories by their weight; the last one takes what rounding left. */
export function categoryBudgets(
  categories: readonly CategoryDefinition[],
  budget: number,
): Map<CategoryDefinition, number> {
  const totalWeight = categories.reduce((n, c) => n + c.weight, 0);
  const budgets = new Map<CategoryDefinition, number>();
  let assigned = 0;
  categories.forEach((c, i) => {
    const b = i === categories.length - 1 ? budget - assigned : Math.floor((budget * c.weight) / totalWeight);
    budgets.set(c, b);
    assigned += b;
  });
  return budgets;
}

export interface ActEventsInput {
  /** The categories that are not league games, in order, each with its share of the events. */
  budgets: ReadonlyMap<CategoryDefinition, number>;
  days: readonly DayInfo[];
  rng: Random;
  names: NameSource;
  roster: PerformerRoster;
  pools: VenuePools;
  venueDays: VenueDays;
  events: EventWriter;
}

/**
 * Tours, residencies and tournaments: each category's acts, with its budget split among them by popularity,
 * each act's dates in its category's shape. Events are numbered across categories for the edge cases.
 */
export async function writeActEvents(input: ActEventsInput): Promise<void> {
  const { budgets, days, rng, names, roster, pools, venueDays, events } = input;
  const popularity = () => Math.min(1, rng.logNormal(-1.6, 0.8));
  let ordinal = 0;
  for (const [category, budget] of budgets) {
    // A catalog too small to give this category a single event leaves it out.
    if (budget <= 0) continue;
    const average = category.schedule === 'tour' ? 24 : category.schedule === 'residency' ? 64 : 4;
    const count = Math.min(Math.max(MIN_PERFORMERS_PER_CATEGORY, Math.ceil(budget / average)), Math.max(1, budget));
    const acts = Array.from({ length: count }, (_, i) => roster.add(names.take(category, i), category, popularity()));
    const counts = eventsPerAct(acts, budget);
    const pool = pools.poolFor(category);
    const basePrice = BASE_PRICE[category.slug] ?? 48;
    // The category's acts open their tours and runs evenly over the window (from a random day), so no stretch of it,
    // the first weeks included, depends on where a few chance starts fell.
    const phase = rng.next();
    for (let i = 0; i < acts.length; i++) {
      const act = acts[i]!;
      for (const slot of schedule(rng, category, counts[i]!, days, (i + phase) / acts.length)) {
        const home = slot.newVenue || !act.home ? pools.pickVenue(pool, act.popularity) : act.home;
        act.home = home;
        // A league game that day at this venue: this one date plays elsewhere.
        const venue = venueDays.has(home.id, slot.day.index)
          ? pools.freeVenue(pool, act.popularity, slot.day.index)
          : home;
        let lineup = [act];
        let name = act.name;
        if (category.schedule === 'tour' && acts.length > 1 && rng.chance(0.12)) {
          const opener = acts[(i + 1 + rng.int(0, acts.length - 2)) % acts.length]!;
          lineup = [act, opener];
          name = `${act.name} with ${opener.name}`;
        }
        await events.write({
          name,
          performers: lineup,
          venue,
          category,
          day: slot.day,
          time: slot.time,
          basePrice,
          ordinal: ordinal++,
        });
      }
      act.home = undefined;
    }
  }
}

/** Splits the budget by popularity, at least one event each. */
function eventsPerAct(acts: readonly PerformerRec[], budget: number): number[] {
  const count = acts.length;
  const shares = acts.map((a) => a.popularity + 0.2);
  const shareSum = shares.reduce((n, s) => n + s, 0);
  const counts = shares.map((s) => Math.max(1, Math.floor(((budget - count) * s) / shareSum) + 1));
  let surplus = counts.reduce((n, c) => n + c, 0) - budget;
  for (let i = 0; surplus !== 0; i = (i + 1) % counts.length) {
    if (surplus > 0 && counts[i]! > 1) {
      counts[i]!--;
      surplus--;
    } else if (surplus < 0) {
      counts[i]!++;
      surplus++;
    }
  }
  return counts;
}
