import { n } from './format.js';
import type { FailingAudit } from './lighthouse-audits.js';
import { CHROMIUM, type PageScore } from './lighthouse-pages.js';

/** The Lighthouse goals (mobile, the median of the runs per page). */
const LIGHTHOUSE_GOALS = { performance: 98, accessibility: 100, bestPractices: 100, seo: 100, lcpMs: 1_500 };

/** The goals a page misses, as `performance 97 < 98`; empty when it meets them all. */
function missedGoals(s: PageScore): string[] {
  const g = LIGHTHOUSE_GOALS;
  const below = (name: string, v: number | undefined, goal: number) =>
    v === undefined || v < goal ? [`${name} ${v ?? '—'} < ${goal}`] : [];
  return [
    ...below('performance', s.performance, g.performance),
    ...below('accessibility', s.accessibility, g.accessibility),
    ...below('best practices', s.bestPractices, g.bestPractices),
    ...below('SEO', s.seo, g.seo),
    ...(s.lcpMs === undefined || s.lcpMs > g.lcpMs
      ? [`LCP ${((s.lcpMs ?? NaN) / 1000).toFixed(1)} s > ${g.lcpMs / 1000} s`]
      : []),
  ];
}

const CATEGORY_NAMES: Record<FailingAudit['category'], string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
  seo: 'SEO',
};
const auditLine = (a: FailingAudit) =>
  `${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}${a.score === null ? ' (could not run)' : ''}`;

const seconds = (ms: number | undefined) => ((ms ?? NaN) / 1000).toFixed(1);

/** How Lighthouse was run, and the goals. */
function method(scores: PageScore[], events: number | undefined, runs: number): string {
  const g = LIGHTHOUSE_GOALS;
  const perPage =
    runs === 1
      ? 'one run per page'
      : `the median of ${runs} runs per page by performance score (the other figures are that run's)`;
  return (
    `Lighthouse ${scores.find((s) => s.lighthouseVersion)?.lighthouseVersion ?? '12'} ` +
    `from the \`lighthouse\` package with \`chrome-launcher\` on Debian's ` +
    `Chromium (${CHROMIUM}), ` +
    `default mobile settings (formFactor mobile, simulated throttling: slow ` +
    `4G, 4× CPU), the four categories, against the server above (${n(events ?? 0)} ` +
    `events) over plain HTTP on 127.0.0.1, each page asked for once just ` +
    `before its runs so that its rendered page is kept, ` +
    `${perPage}; ` +
    `TBT comes from the main-thread work Chromium recorded here, so it rises ` +
    `with the machine's other load. ` +
    `The server compresses its answers (brotli or gzip) as a CDN in front of ` +
    `it would. Goals: performance ≥ ${g.performance}, accessibility ` +
    `${g.accessibility}, best practices ${g.bestPractices}, SEO ${g.seo}, LCP ` +
    `≤ ${g.lcpMs / 1000} s.`
  );
}

/** A page's row of the table: its median run's scores and timings, and the goals it met or missed. */
function scoreRow(s: PageScore, runsAsked: number): string {
  if (s.error || s.performance === undefined) {
    return (
      `| ${s.name} | \`${s.path}\` | error | error | error | error | | | | | ` +
      `could not measure: \`${(s.error ?? 'no score').replaceAll('|', '\\|')}\` ` +
      `|`
    );
  }
  const failed = s.failedRuns?.length
    ? `; ${s.failedRuns.length} of ${s.runs ?? runsAsked} attempts failed ` +
      `and were replaced while attempts remained: ` +
      s.failedRuns.map((e) => e.replace(/^(\w+): .*$/, '$1')).join(', ')
    : '';
  const missed = missedGoals(s);
  const runs = s.performanceScores
    ? ` (performance runs: ${s.performanceScores.join(', ')}${failed})`
    : failed
      ? ` (${failed.slice(2)})`
      : '';
  const goals = `${missed.length ? `**not met**: ${missed.join(', ')}` : '**met**'}${runs}`.replaceAll('|', '\\|');
  return (
    `| ${s.name} | \`${s.path}\` | ${s.performance} | ${s.accessibility ?? '—'} ` +
    `| ${s.bestPractices ?? '—'} | ${s.seo ?? '—'} | ${seconds(s.fcpMs)} ` +
    `s | ${seconds(s.lcpMs)} s | ${n(s.tbtMs ?? NaN)} ms ` +
    `| ${(s.cls ?? NaN).toFixed(3)} | ${goals} |`
  );
}

/** Per page measured: its failing audits by category, its LCP element and Lighthouse's warnings. */
function auditNotes(scores: PageScore[]): string[] {
  return scores.flatMap((s) => {
    if (s.error) return [];
    const byCategory = Object.entries(CATEGORY_NAMES).flatMap(([id, name]) => {
      const failing = (s.failingAudits ?? []).filter((a) => a.category === id);
      return failing.length ? [`  - ${name}: ${failing.map(auditLine).join('; ')}.`] : [];
    });
    const heading = byCategory.length
      ? 'audits below 1 (informative, manual and not-applicable ones left out):'
      : 'no audit below 1.';
    return [
      `- ${s.name}: ${heading}`,
      ...byCategory,
      ...(s.lcpElement?.length ? [`  - LCP element: ${s.lcpElement.join('; ')}.`] : []),
      ...(s.warnings?.length ? [`  - Lighthouse warnings: ${s.warnings.join('; ')}.`] : []),
    ];
  });
}

/** The Lighthouse section of RESULTS.md: `runs` is the runs asked for per page. */
export function lighthouseSection(
  scores: PageScore[] | undefined,
  events: number | undefined,
  skipped: boolean,
  runs: number,
): string {
  if (skipped) return '### Lighthouse\n\nSkipped (`--no-lighthouse`).';
  if (!scores) return '### Lighthouse\n\nNot run: no server size finished.';
  const lines = [
    '### Lighthouse',
    '',
    method(scores, events, runs),
    '',
    '| page | path | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | goals |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...scores.map((s) => scoreRow(s, runs)),
  ];
  const notes = auditNotes(scores);
  if (notes.length)
    lines.push(
      '',
      "Why a score is below 100 (the median run; each audit's items are in the " +
        "run's output, and every run's whole report in `bench/out/lighthouse/`):",
      '',
      ...notes,
    );
  return lines.join('\n');
}

/** Every failing audit with its items: printed by the run, not written to RESULTS.md. */
export function lighthouseDetails(scores: PageScore[] | undefined): string {
  if (!scores) return '';
  const lines = ['## Lighthouse: failing audits in full (the median run of each page)'];
  for (const s of scores) {
    lines.push('', `### ${s.name} (\`${s.path}\`)${s.reportFile ? `: ${s.reportFile}` : ''}`, '');
    if (s.error) {
      lines.push(`could not measure: ${s.error}`);
      continue;
    }
    lines.push(
      `performance ${s.performance}, accessibility ${s.accessibility}, best ` +
        `practices ${s.bestPractices}, SEO ${s.seo}; FCP ${n(s.fcpMs ?? NaN)} ms, ` +
        `LCP ${n(s.lcpMs ?? NaN)} ms, TBT ${n(s.tbtMs ?? NaN)} ms, CLS ${(s.cls ?? NaN).toFixed(3)}`,
      `LCP element: ${s.lcpElement?.join('; ') || 'none reported'}`,
    );
    for (const a of s.failingAudits ?? []) {
      lines.push(
        `- [${CATEGORY_NAMES[a.category]}] ${auditLine(a)}: score ` +
          `${a.score ?? 'n/a'}, weight ${a.weight} (\`${a.id}\`)`,
        ...a.details.map((d) => `    - ${d}`),
      );
    }
  }
  return lines.join('\n');
}
