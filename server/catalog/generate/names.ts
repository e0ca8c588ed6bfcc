import type { CategoryDefinition } from '../../../shared/catalog/taxonomy.js';
import type { Random } from './random.js';
import { BAND_NAME_PARTS, PERSON_NAME_PARTS, SHOWS } from '../data/shows.js';

const BAND_PATTERNS = [
  (a: string, n: string) => `The ${a} ${n}s`,
  (a: string, n: string) => `${a} ${n}`,
  (a: string, n: string) => `${n}s of ${a}`,
  (a: string, n: string) => `${a} ${n} Collective`,
];
const SHOW_SUFFIX: Partial<Record<string, readonly string[]>> = {
  classical: ['Chamber Orchestra', 'String Quartet', 'Philharmonic Players', 'Baroque Ensemble'],
  festivals: ['Music Festival', 'Fest', 'Weekender', 'Music & Arts Festival'],
  religious: ['Worship Tour', 'Gospel Revival', 'Praise Night'],
  ballet: ['Ballet Theatre', 'Dance Company: The Nutcracker'],
  dance: ['Dance Company', 'Tap Revue', 'Movement Theatre'],
  golf: ['Classic', 'Championship', 'Invitational', 'Open'],
  racing: ['400', 'Grand Prix', 'Nationals', 'Showdown'],
  tennis: ['Open', 'Classic', 'Championships'],
  rodeo: ['Stampede', 'Pro Rodeo', 'Bull Riding Invitational'],
  boxing: ['Fight Night', 'Championship Boxing', 'Title Night'],
  mma: ['Fight Night', 'Combat Series', 'Cage Championship'],
  wwe: ['Live Tour'],
};

/** Hands out unique performer names for a category: the real ones first, then fictional ones. */
export class NameSource {
  private readonly used = new Set<string>();

  constructor(private readonly rng: Random) {}

  take(category: CategoryDefinition, index: number): string {
    const real = SHOWS[category.slug];
    if (real && index < real.length && !this.used.has(real[index]!)) return this.claim(real[index]!);
    for (let attempt = 0; attempt < 50; attempt++) {
      const name = this.fictional(category);
      if (!this.used.has(name)) return this.claim(name);
    }
    // Past that the parts are exhausted for this shape; an ordinal keeps names unique and deterministic.
    let n = 2;
    const base = this.fictional(category);
    while (this.used.has(`${base} ${roman(n)}`)) n++;
    return this.claim(`${base} ${roman(n)}`);
  }

  claim(name: string): string {
    this.used.add(name);
    return name;
  }

  private fictional(category: CategoryDefinition): string {
    const { rng } = this;
    const adjective = rng.pick(BAND_NAME_PARTS.adjectives);
    const noun = rng.pick(BAND_NAME_PARTS.nouns);
    if (category.names === 'person') {
      return `${rng.pick(PERSON_NAME_PARTS.first)} ${rng.pick(PERSON_NAME_PARTS.last)}`;
    }
    if (category.names === 'band') return rng.pick(BAND_PATTERNS)(adjective, noun);
    const suffixes = SHOW_SUFFIX[category.slug];
    if (suffixes) return `${adjective} ${noun} ${rng.pick(suffixes)}`;
    if (category.group === 'theater') return `${adjective} ${noun}: The Musical`;
    return `${adjective} ${noun} Live`;
  }
}

function roman(n: number): string {
  const table: [number, string][] = [
    [1000, 'M'],
    [900, 'CM'],
    [500, 'D'],
    [400, 'CD'],
    [100, 'C'],
    [90, 'XC'],
    [50, 'L'],
    [40, 'XL'],
    [10, 'X'],
    [9, 'IX'],
    [5, 'V'],
    [4, 'IV'],
    [1, 'I'],
  ];
  let out = '';
  for (const [value, letters] of table) {
    while (n >= value) {
      out += letters;
      n -= value;
    }
  }
  return out;
}
