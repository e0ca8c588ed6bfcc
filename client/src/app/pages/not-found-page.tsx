import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section aria-labelledby="nf-title">
      <h1 id="nf-title">Page not found</h1>
      <p>We could not find that page. It may have moved, or the event may have ended.</p>
      <Link to="/">Back to the home page</Link>
    </section>
  );
}
