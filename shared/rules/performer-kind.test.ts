import { describe, expect, it } from 'vitest';
import { PerformerKindSchema } from '../schemas/entities.js';
import { CATEGORIES } from '../catalog/categories.js';
import { performerDocument } from '../../server/test/documents.js';
import { performerKind } from './performer-kind.js';

describe('performerKind (a league’s teams are teams, every other act a group)', () => {
  it.each<[string, string, string]>([
    ['an NFL team', 'nfl', 'team'],
    ['an MLB team', 'mlb', 'team'],
    ['an NBA team', 'nba', 'team'],
    ['an NHL team', 'nhl', 'team'],
    ['an MLS team (Soccer sits in the Other menu, but it is a league)', 'soccer', 'team'],
    ['a boxing card is no team', 'boxing', 'group'],
    ['a tennis tournament is no team', 'tennis', 'group'],
    ['a WWE tour is no team', 'wwe', 'group'],
    ['a band', 'hard-rock-metal', 'group'],
    ['a pop act: the document cannot tell a solo artist from a band', 'pop', 'group'],
    ['a comedian: no field says it is one person', 'comedy', 'group'],
    ['a Broadway show', 'broadway', 'group'],
    ['a category the taxonomy does not know, even under SPORTS', 'olympic-gymnastics', 'group'],
  ])('%s', (_case, category, kind) => {
    expect(performerKind(performerDocument({ category }))).toBe(kind);
  });

  it('names only kinds the event page’s schema accepts, for every category', () => {
    for (const c of CATEGORIES)
      expect(PerformerKindSchema.parse(performerKind({ category: c.slug }))).toBe(
        c.schedule === 'league' ? 'team' : 'group',
      );
  });
});
