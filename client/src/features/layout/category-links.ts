/** Spec §2: the footer's category links and the top categories. */
export const TOP_CATEGORIES = [
  { slug: 'sports', name: 'Sports' },
  { slug: 'concerts', name: 'Concerts' },
  { slug: 'theater', name: 'Theater' },
] as const;

export const FOOTER_LINKS = {
  Sports: [
    { slug: 'nfl', name: 'NFL' },
    { slug: 'mlb', name: 'MLB' },
    { slug: 'nba', name: 'NBA' },
    { slug: 'nhl', name: 'NHL' },
  ],
  Concerts: [
    { slug: 'pop', name: 'Pop' },
    { slug: 'rap-hip-hop', name: 'Rap & Hip-Hop' },
    { slug: 'country-folk', name: 'Country & Folk' },
    { slug: 'festivals', name: 'Festivals' },
  ],
  Theater: [
    { slug: 'broadway', name: 'Broadway' },
    { slug: 'musicals', name: 'Musicals' },
    { slug: 'las-vegas-shows', name: 'Las Vegas Shows' },
    { slug: 'west-end', name: 'West End' },
  ],
} as const;
