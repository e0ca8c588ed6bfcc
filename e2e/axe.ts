import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from './fixtures.js';

/** Every axe violation, of any impact, named with where it is. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} at ${v.nodes
        .map((n) => n.target.join(' '))
        .slice(0, 3)
        .join('; ')}`,
  );
}
