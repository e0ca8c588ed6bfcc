import { Link } from 'react-router';
import { TOP_CATEGORIES } from '../../features/layout/category-links.js';

export function HomePage() {
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">Find tickets near you</h1>
      <p>Concerts, sports and theater from trusted resellers, with a 100% money back guarantee.</p>
      <nav aria-label="Browse by category">
        <ul className="tiles">
          {TOP_CATEGORIES.map((c) => (
            <li key={c.slug}>
              <Link to={`/category/${c.slug}`}>{c.name}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
