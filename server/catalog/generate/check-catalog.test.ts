import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventDocument } from '../../../shared/schemas/documents.js';
import { collectionFile } from '../manifest.js';
import { checkCatalogInvariants } from './check-catalog.js';
import { generateCatalog } from './generate-catalog.js';

let tmp: string;
let clean: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'catalog-check-'));
  clean = path.join(tmp, 'clean');
  await generateCatalog({ events: 3000, seed: 11, start: '2027-05-10', outDir: clean });
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** A copy of the clean catalog with its events passed through `change`. */
async function tampered(name: string, change: (events: EventDocument[]) => EventDocument[]): Promise<string> {
  const dir = path.join(tmp, name);
  await cp(clean, dir, { recursive: true });
  const file = collectionFile(dir, 'Event');
  const events = (await readFile(file, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as EventDocument);
  await writeFile(
    file,
    change(events)
      .map((e) => JSON.stringify(e))
      .join('\n') + '\n',
  );
  return dir;
}

describe('checkCatalogInvariants', () => {
  it('finds nothing wrong in a shortened season starting mid-way through the MLB season', async () => {
    const result = await checkCatalogInvariants(clean);
    expect(result.counts).toEqual({});
    expect(result.leagueGames).toBeGreaterThan(500);
  });

  it('reports a team booked twice on one day, the venue double-booked and the counts off', async () => {
    const dir = await tampered('twice', (events) => {
      const game = events.find((e) => e.category === 'nba')!;
      const other = events.find(
        (e) =>
          e.category === 'nba' &&
          e.venue_id !== game.venue_id &&
          e.event_local_timestamp!.slice(0, 10) !== game.event_local_timestamp!.slice(0, 10),
      )!;
      // The same home team again at its own venue that day, against another opponent.
      return [
        ...events,
        {
          ...other,
          id: '1',
          event_id: 1,
          venue_id: game.venue_id,
          performer_ids: [game.performer_ids[0]!, other.performer_ids[1]!],
          event_local_timestamp: game.event_local_timestamp,
          event_timestamp: game.event_timestamp,
          venue_time_zone_offset: game.venue_time_zone_offset,
        },
      ];
    });
    const { counts } = await checkCatalogInvariants(dir);
    expect(counts['team-twice-a-day']).toBeGreaterThanOrEqual(1);
    expect(counts['venue-double-booked']).toBe(1);
    expect(counts['performer-counts']).toBeGreaterThanOrEqual(1);
    expect(counts['manifest']).toBe(1);
  });

  it('reports an NFL game on a Tuesday, a missing performer and a league game outside the window', async () => {
    const dir = await tampered('rules', (events) => {
      const nfl = events.find((e) => e.category === 'nfl' && e.event_local_timestamp!.slice(11) === '13:00:00')!;
      const tuesday = new Date(Date.parse(`${nfl.event_local_timestamp}Z`) + 2 * 86_400_000).toISOString().slice(0, 19);
      const mlb = events.find((e) => e.category === 'mlb')!;
      return events.map((e) =>
        e === nfl
          ? { ...e, event_local_timestamp: tuesday, event_timestamp: e.event_timestamp! + 2 * 86_400 }
          : e === mlb
            ? {
                ...e,
                performer_ids: [...e.performer_ids.slice(0, 1), 999_999],
                event_local_timestamp: '2029-01-01T19:05:00',
                event_timestamp: Date.parse('2029-01-01T19:05:00Z') / 1000 - e.venue_time_zone_offset * 3600,
              }
            : e,
      );
    });
    const { counts } = await checkCatalogInvariants(dir);
    expect(counts['nfl-kickoff']).toBe(1);
    expect(counts['performer-exists']).toBe(1);
    expect(counts['dates']).toBe(1);
  });
});
