import { AppError } from '../http/errors.js';
import type { CachedEngine } from './cached-engine.js';
import type { CatalogEngine } from './search-engine.js';

/** Holds the search engine once it is built; until then routes that need it answer 503. */
export class SearchService {
  private current: CachedEngine | null = null;
  private writable: CatalogEngine | null = null;

  /** The engine searches go to (behind its cache), and the one catalog changes are written to. */
  set(engine: CachedEngine, writable?: CatalogEngine): void {
    this.current = engine;
    this.writable = writable ?? null;
  }

  /** The engine catalog changes are applied to. */
  get catalog(): CatalogEngine {
    if (!this.current) throw new AppError(503, 'search_unavailable', 'Search is starting up; try again in a moment');
    if (!this.writable)
      throw new AppError(503, 'catalog_read_only', 'This engine takes no catalog changes through the storefront');
    return this.writable;
  }

  get ready(): boolean {
    return this.current !== null;
  }

  get engine(): CachedEngine {
    if (!this.current) throw new AppError(503, 'search_unavailable', 'Search is starting up; try again in a moment');
    return this.current;
  }
}
