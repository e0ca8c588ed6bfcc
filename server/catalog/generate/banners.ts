import { CATEGORY_BY_SLUG } from '../../../shared/catalog/categories.js';
import { categoryImageCode } from '../../../shared/catalog/category-images.js';
import { entitySlug } from '../../../shared/rules/slug.js';
import type { PerformerRec } from './catalog-records.js';
import type { CatalogWriters } from './catalog-writers.js';
import { categoryImage, performerImage } from './media-paths.js';

/**
 * The promotion banners: seasons of the leagues and kinds of show, one that has ended, and the three top touring
 * acts; `now` is the catalog's first day in seconds and each banner runs from and to days counted from it.
 */
export function writeBanners(writer: CatalogWriters['Banner'], ranked: readonly PerformerRec[], now: number) {
  const day = 86400;
  const promos: {
    title: string;
    subtitle: string;
    slug?: string;
    performer?: PerformerRec;
    from: number;
    to: number;
  }[] = [
    { title: 'Football Sundays', subtitle: 'Every NFL home game, all-in prices', slug: 'nfl', from: -30, to: 75 },
    { title: 'Hoops Season', subtitle: 'Courtside to the rafters: NBA tickets', slug: 'nba', from: -30, to: 150 },
    { title: 'Puck Drop', subtitle: 'NHL games near you', slug: 'nhl', from: -30, to: 150 },
    { title: 'Opening Day Is Coming', subtitle: 'MLB tickets for the new season', slug: 'mlb', from: 0, to: 310 },
    {
      title: 'A Night on Broadway',
      subtitle: 'The shows everyone is talking about',
      slug: 'broadway',
      from: -10,
      to: 365,
    },
    { title: 'Festival Season', subtitle: 'Multi-day passes and single days', slug: 'festivals', from: 0, to: 365 },
    { title: 'Laugh Out Loud', subtitle: 'Stand-up comedy on tour', slug: 'comedy', from: 0, to: 200 },
    { title: 'Family Fun', subtitle: 'Shows for every age', slug: 'family-friendly-shows', from: 0, to: 365 },
    { title: 'Last Season Clearance', subtitle: 'This promotion has ended', slug: 'pop', from: -120, to: -1 },
  ];
  for (const top of ranked.filter((p) => p.category.schedule === 'tour').slice(0, 3)) {
    promos.push({ title: top.name, subtitle: 'On tour now: find a date near you', performer: top, from: -5, to: 120 });
  }
  promos.forEach((p, i) => {
    const category = p.slug ? CATEGORY_BY_SLUG.get(p.slug)! : p.performer!.category;
    writer.write({
      id: String(i + 1),
      banner_id: i + 1,
      brand: '*',
      placement: 'promo',
      title: p.title,
      subtitle: p.subtitle,
      image: p.performer ? performerImage(p.performer.id) : categoryImage(categoryImageCode(category)),
      url: p.performer ? `/performers/${entitySlug(p.performer.name, p.performer.id)}` : `/category/${category.slug}`,
      priority: promos.length - i,
      starts_at: now + p.from * day,
      ends_at: now + p.to * day,
    });
  });
}
