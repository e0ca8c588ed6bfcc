import { Link } from 'react-router';
import { SearchForm } from '../../components/search-form.js';

/** An address with nothing at it: said plainly, with a search (a plain form, so it works before any script). */
export function NotFoundPage() {
  return (
    <section aria-labelledby="nf-title" className="not-found">
      <h1 id="nf-title">Page not found</h1>
      <p>We could not find that page. It may have moved, or the event may have ended.</p>
      <SearchForm id="nf-search" label="Search for an artist, team or venue" />
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </section>
  );
}
