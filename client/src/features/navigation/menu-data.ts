import { useQuery } from '@tanstack/react-query';
import { callQueryKey, type ApiCall } from '../../../../shared/schemas/api-calls.js';
import { callApi, reportClientError } from '../../lib/api.js';
import type { Menu } from '../../lib/schemas.js';

export type MenuCategory = Menu['categories'][number];
export type MenuLink = { name: string; url: string };

/** RULES 12.2: mega-menu close delay and column count. */
export const MENU_CLOSE_DELAY_MS = 200;
export const MENU_COLUMNS = 5;

/** The menu changes only with the catalog and the server lets edges cache it for an hour (RULES 13.2: 3600 s). */
export const MENU_STALE_TIME_MS = 60 * 60_000;
/** The menu's call. The page carries none of it: the links load when a panel or the drawer first opens. */
export const menuCall: ApiCall = { call: 'menu' };
/** Loaded with the menu's fetch, not with the page (`AnswerSchema`). */
const menuSchema = () => import('../../lib/schemas.js').then((m) => m.MenuSchema);

/** Phones and wide screens switch at this width (the same value as the CSS media queries). */
export const WIDE_MEDIA_QUERY = '(min-width: 768px)';

/** The menu's links; `enabled` false until a panel or the drawer is about to open (nothing fetched before). */
export function useMenu(enabled = true) {
  return useQuery({
    enabled,
    queryKey: callQueryKey(menuCall),
    // The menu is public and edge-cacheable, so no guest token goes with it.
    queryFn: ({ signal }) =>
      callApi(menuCall, menuSchema, { signal, token: false }).catch((error: unknown) => {
        if (!signal.aborted) reportClientError(error, 'navigation menu');
        throw error;
      }),
    staleTime: MENU_STALE_TIME_MS,
  });
}

/** RULES 2.1, top categories: plain links shown in the drawer when the menu cannot be loaded. */
export const TOP_CATEGORY_LINKS: readonly MenuLink[] = [
  { name: 'Sports', url: '/category/sports' },
  { name: 'Concerts', url: '/category/concerts' },
  { name: 'Theater', url: '/category/theater' },
];

/** RULES 12.5, footer: category links for Sports, Concerts and Theater. */
export const FOOTER_CATEGORIES: readonly { name: string; url: string; links: readonly MenuLink[] }[] = [
  {
    name: 'Sports',
    url: '/category/sports',
    links: [
      { name: 'NFL', url: '/category/nfl' },
      { name: 'MLB', url: '/category/mlb' },
      { name: 'NHL', url: '/category/nhl' },
      { name: 'NBA', url: '/category/nba' },
    ],
  },
  {
    name: 'Concerts',
    url: '/category/concerts',
    links: [
      { name: 'Pop & Rock', url: '/category/pop' },
      { name: 'Rap & Hip-Hop', url: '/category/rap-hip-hop' },
      { name: 'Country & Folk', url: '/category/country-folk' },
      { name: 'Latin', url: '/category/latin' },
      { name: 'Festivals', url: '/category/festivals' },
      { name: 'Comedy', url: '/category/comedy' },
    ],
  },
  {
    name: 'Theater',
    url: '/category/theater',
    links: [
      { name: 'Broadway', url: '/category/broadway' },
      { name: 'Musicals', url: '/category/musicals' },
      { name: 'Las Vegas Shows', url: '/category/las-vegas-shows' },
      { name: 'Cirque du Soleil', url: '/category/cirque-du-soleil' },
      { name: 'Opera', url: '/category/opera' },
      { name: 'West End', url: '/category/west-end' },
    ],
  },
];

/** RULES 2.1, footer policy links; the optout label is fixed by the spec. */
export const POLICY_LINKS: readonly MenuLink[] = [
  { name: 'Contact Us', url: '/contact-us' },
  { name: 'FAQ', url: '/faq' },
  { name: 'Policies', url: '/policies' },
  { name: 'Privacy Policy', url: '/policies#privacy' },
  { name: 'Do Not Sell or Share My Info', url: '/policies#optout' },
];

export type SocialNetwork = 'instagram' | 'facebook' | 'x' | 'youtube';

/** The spec does not give the brand's social accounts; these are the networks' home pages. */
export const SOCIAL_LINKS: readonly { network: SocialNetwork; name: string; url: string }[] = [
  { network: 'instagram', name: 'Instagram', url: 'https://www.instagram.com/' },
  { network: 'facebook', name: 'Facebook', url: 'https://www.facebook.com/' },
  { network: 'x', name: 'X', url: 'https://x.com/' },
  { network: 'youtube', name: 'YouTube', url: 'https://www.youtube.com/' },
];
