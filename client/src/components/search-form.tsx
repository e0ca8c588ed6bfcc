import { MAX_QUERY_LENGTH } from '../../../shared/rules/constants.js';
import { RESULTS_PATH } from '../../../shared/rules/site-paths.js';

/**
 * A search as a plain form, which works before any script: on the not-found page, and on the results page when
 * nothing was searched (a dead end otherwise) or nothing was found.
 */
export function SearchForm({ id, label, query = '' }: { id: string; label: string; query?: string }) {
  return (
    // Named, as a page holds the header's search too.
    <form action={RESULTS_PATH} method="get" role="search" aria-label={label} className="search-form">
      <label htmlFor={id}>{label}</label>
      <input id={id} name="kwds" type="search" autoComplete="off" maxLength={MAX_QUERY_LENGTH} defaultValue={query} />
      <button type="submit">Search</button>
    </form>
  );
}
