import { Link } from 'react-router';

/** An address with nothing at it: said plainly, with a search (a plain form, so it works before any script). */
export function NotFoundPage() {
  return (
    <section aria-labelledby="nf-title" className="not-found">
      <h1 id="nf-title">Page not found</h1>
      <p>We could not find that page. It may have moved, or the event may have ended.</p>
      <form action="/results-general" method="get" role="search" className="not-found__search">
        <label htmlFor="nf-search">Search for an artist, team or venue</label>
        <input id="nf-search" name="kwds" type="search" autoComplete="off" />
        <button type="submit">Search</button>
      </form>
      <p>
        <Link to="/">Back to the home page</Link>
      </p>
    </section>
  );
}
