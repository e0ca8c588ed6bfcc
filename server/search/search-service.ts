import { AppError } from '../http/errors.js';
import type { CachedEngine } from './cached-engine.js';

/** Holds the search engine once it is built; until then routes that need it answer 503. */
export class SearchService {
  private current: CachedEngine | null = null;

  set(engine: CachedEngine): void {
    this.current = engine;
  }

  get ready(): boolean {
    return this.current !== null;
  }

  get engine(): CachedEngine {
    if (!this.current) throw new AppError(503, 'search_unavailable', 'Search is starting up; try again in a moment');
    return this.current;
  }
}
