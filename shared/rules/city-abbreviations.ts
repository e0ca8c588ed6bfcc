/**
 * Product decision: what shoppers type for a city. Two or three letters ("ny", "la", "sf", "kc") are how most
 * people name the big sports towns, and a prefix search finds nothing for them (no team is called "NY…"), so the
 * search box reads them as the city they stand for. Only abbreviations that mean one city in everyday use are
 * listed; a state code that names a state rather than a town ("ca", "tx") is not.
 */
export const CITY_ABBREVIATIONS: Readonly<Record<string, string>> = {
  ny: 'New York',
  nyc: 'New York',
  la: 'Los Angeles',
  sf: 'San Francisco',
  kc: 'Kansas City',
  dc: 'Washington',
  lv: 'Las Vegas',
  vegas: 'Las Vegas',
  sd: 'San Diego',
  nola: 'New Orleans',
  stl: 'St. Louis',
  atl: 'Atlanta',
  chi: 'Chicago',
  bos: 'Boston',
  philly: 'Philadelphia',
  phl: 'Philadelphia',
  dal: 'Dallas',
  hou: 'Houston',
  det: 'Detroit',
  sea: 'Seattle',
  den: 'Denver',
  mia: 'Miami',
  pit: 'Pittsburgh',
  okc: 'Oklahoma City',
  slc: 'Salt Lake City',
  phx: 'Phoenix',
  tb: 'Tampa Bay',
  gb: 'Green Bay',
};

/** The city a (normalised) query abbreviates, or undefined. */
export function cityForAbbreviation(query: string): string | undefined {
  return Object.hasOwn(CITY_ABBREVIATIONS, query) ? CITY_ABBREVIATIONS[query] : undefined;
}
