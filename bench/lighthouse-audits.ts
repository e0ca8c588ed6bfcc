/** Which audits of a Lighthouse report did not pass, by category, with their items in short. */
import { summarizeDetails } from './lighthouse-details.js';

/** The four Lighthouse categories run, in report order. */
export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

/** An audit of a category that did not pass: what Lighthouse shows under that category's "failing" heading. */
export interface FailingAudit {
  category: Category;
  id: string;
  title: string;
  /** Lighthouse's own short figure ("Est savings of 73 KiB", "2.3 s", "3 resources found"). */
  displayValue?: string;
  /** 0–1; null when the audit could not run (then `details` holds its error). */
  score: number | null;
  /** Its weight in the category's score (0: shown, but not counted). */
  weight: number;
  /** Its items in short: which elements, resources or messages, with their figures (the first few). */
  details: string[];
}

/** Modes whose audits are never "failing": shown for information, checked by hand, or not relevant to the page. */
const NOT_FAILING = new Set(['informative', 'manual', 'notApplicable']);

export interface AuditLike {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  errorMessage?: string;
  details?: unknown;
}
interface CategoryLike {
  score: number | null;
  auditRefs: { id: string; weight: number }[];
}

/** Every audit of the categories that scores below 1, heaviest first within each category. */
export function failingAudits(
  categories: Partial<Record<string, CategoryLike>>,
  audits: Record<string, AuditLike | undefined>,
): FailingAudit[] {
  const seen = new Set<string>();
  const failing: FailingAudit[] = [];
  for (const category of CATEGORIES) {
    const refs = [...(categories[category]?.auditRefs ?? [])].sort((a, b) => b.weight - a.weight);
    for (const ref of refs) {
      const audit = audits[ref.id];
      if (!audit || seen.has(ref.id) || NOT_FAILING.has(audit.scoreDisplayMode)) continue;
      const errored = audit.scoreDisplayMode === 'error';
      if (!errored && !(typeof audit.score === 'number' && audit.score < 1)) continue;
      seen.add(ref.id);
      failing.push({
        category,
        id: ref.id,
        title: audit.title,
        ...(audit.displayValue ? { displayValue: audit.displayValue } : {}),
        score: errored ? null : audit.score,
        weight: ref.weight,
        details: errored ? [`could not run: ${audit.errorMessage ?? 'no message'}`] : summarizeDetails(audit.details),
      });
    }
  }
  return failing;
}
