import { Router } from 'express';
import { AppError } from '../http/errors.js';
import { originOf, type PublicOrigins } from './public-origins.js';
import { robotsTxt, SITEMAP_INDEX_PATH } from './robots.js';
import type { SitemapService } from './sitemap-service.js';
import { XML_CONTENT_TYPE } from './sitemap-protocol.js';

/** Crawlers ask again rather than keep a copy: a catalog change shows in the next sitemap read. */
const CRAWLER_CACHE_CONTROL = 'no-cache';

/**
 * `/robots.txt`, the sitemap index at `/sitemap.xml` and its files under `/sitemaps/` (404 without a sitemap
 * service, as in tests that build the app without a catalog), their addresses on the request's public origin.
 */
export function seoRoutes(sitemaps: SitemapService | undefined, origins: PublicOrigins): Router {
  const router = Router();
  router.get('/robots.txt', (req, res) => {
    res
      .type('text/plain')
      .set('Cache-Control', CRAWLER_CACHE_CONTROL)
      .send(robotsTxt(originOf(req, origins)));
  });
  if (!sitemaps) {
    router.get([SITEMAP_INDEX_PATH, '/sitemaps/{*file}'], () => {
      throw new AppError(404, 'sitemap_not_found', 'This server has no sitemaps');
    });
    return router;
  }
  router.get(SITEMAP_INDEX_PATH, async (req, res) => {
    const body = await sitemaps.index(originOf(req, origins));
    res.type(XML_CONTENT_TYPE).set('Cache-Control', CRAWLER_CACHE_CONTROL).send(body);
  });
  router.get('/sitemaps/:file', async (req, res) => {
    const built = await sitemaps.file(req.params.file, originOf(req, origins));
    if (!built) throw new AppError(404, 'sitemap_not_found', `No sitemap file "${req.params.file.slice(0, 64)}"`);
    // The tag was computed when the file was built: a revisit that has it is a 304 without hashing megabytes.
    res.type(XML_CONTENT_TYPE).set('Cache-Control', CRAWLER_CACHE_CONTROL).set('ETag', built.etag).send(built.body);
  });
  return router;
}
