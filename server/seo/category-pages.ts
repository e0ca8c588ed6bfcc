import { CATEGORY_BY_SLUG } from '../../shared/catalog/categories.js';
import type { LayoutService } from '../layout/layout-service.js';
import type { SegmentRepository } from '../segments/segment-repository.js';
import { GROUP_PAGES } from '../segments/segment-set.js';

/**
 * The category pages the storefront answers for its default brand: the group pages (sports, concerts, theater)
 * and every category route, each as `/api/layout/category/:slug` resolves it (`LayoutService.pageFor`) to a
 * segment page the brand has.
 */
export function categoryPages(layout: LayoutService, segments: SegmentRepository): string[] {
  const brand = segments.defaultBrand.id;
  return [...GROUP_PAGES, ...CATEGORY_BY_SLUG.keys()].filter(
    (slug) => segments.page(brand, layout.pageFor({ page: 'category', slug }).page) !== undefined,
  );
}
