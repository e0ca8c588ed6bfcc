/**
 * Lighthouse over pages of a running storefront with its default mobile settings (Moto G Power screen,
 * simulated slow 4G and 4× CPU slowdown): the scores come from a simulation of the recorded load, so they
 * move far less with this machine's noise than the load figures do.
 */
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { onCleanup } from './children.js';

export const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface PageScore {
  name: string;
  path: string;
  performance?: number;
  accessibility?: number;
  fcpMs?: number;
  lcpMs?: number;
  tbtMs?: number;
  cls?: number;
  /** Why there are no numbers. */
  error?: string;
  /** Failed accessibility audits, by id. */
  failedA11y?: string[];
  lighthouseVersion?: string;
  warnings?: string[];
  runs?: number;
  /** Every run's performance score, lowest first, when there was more than one. */
  performanceScores?: number[];
  /** Why each run that gave no score failed, so a median of fewer runs than asked is never silent. */
  failedRuns?: string[];
  /** Performance audits that fail, with what Lighthouse estimates they cost. */
  opportunities?: string[];
}

export async function lighthousePages(
  base: string,
  pages: { name: string; path: string }[],
  chromePath: string,
  options: { runs: number; perRunTimeoutMs: number },
): Promise<PageScore[]> {
  let chrome: LaunchedChrome;
  try {
    chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS, handleSIGINT: false, logLevel: 'silent' });
  } catch (err) {
    return pages.map((p) => ({ ...p, error: `Chromium did not start: ${message(err)}` }));
  }
  const forget = onCleanup(() => chrome.kill());
  try {
    const scores: PageScore[] = [];
    for (const page of pages) {
      const runs: PageScore[] = [];
      for (let i = 0; i < options.runs; i++) runs.push(await onePage(base, page, chrome.port, options.perRunTimeoutMs));
      scores.push(medianRun(runs, page));
    }
    return scores;
  } finally {
    forget();
    chrome.kill();
  }
}

/** The run with the median performance score (Lighthouse's own advice for variable runs); an error if none scored. */
export function medianRun(runs: PageScore[], page: { name: string; path: string }): PageScore {
  const scored = runs.filter((r) => r.performance !== undefined && !r.error).sort((a, b) => a.performance! - b.performance!);
  const chosen = scored[Math.floor((scored.length - 1) / 2)];
  if (!chosen) return runs.find((r) => r.error) ?? { ...page, error: 'no run scored' };
  const failedRuns = runs.filter((r) => !scored.includes(r)).map((r) => r.error ?? 'no performance score');
  return {
    ...chosen,
    runs: runs.length,
    ...(runs.length > 1 ? { performanceScores: scored.map((r) => r.performance!) } : {}),
    ...(failedRuns.length ? { failedRuns } : {}),
  };
}

async function onePage(base: string, page: { name: string; path: string }, port: number, timeoutMs: number): Promise<PageScore> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const run = lighthouse(base + page.path, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no result within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const result = await Promise.race([run, timeout]);
    const lhr = result?.lhr;
    if (!lhr) return { ...page, error: 'Lighthouse returned no result' };
    if (lhr.runtimeError) return { ...page, error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` };
    const audit = (id: string) => lhr.audits[id]?.numericValue;
    const score = (id: string) => {
      const s = lhr.categories[id]?.score;
      return typeof s === 'number' ? Math.round(s * 100) : undefined;
    };
    const failedA11y = (lhr.categories.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
      .map((ref) => ref.id);
    const opportunities = (lhr.categories.performance?.auditRefs ?? [])
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a && a.scoreDisplayMode === 'metricSavings' && typeof a.score === 'number' && a.score < 0.9)
      .map((a) => `${a!.title}${a!.displayValue ? ` (${a!.displayValue})` : ''}`);
    return {
      ...page,
      performance: score('performance'),
      accessibility: score('accessibility'),
      fcpMs: audit('first-contentful-paint'),
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      failedA11y,
      lighthouseVersion: lhr.lighthouseVersion,
      opportunities,
      warnings: lhr.runWarnings.map((w) => w.slice(0, 200)),
    };
  } catch (err) {
    return { ...page, error: message(err) };
  } finally {
    clearTimeout(timer);
  }
}

function message(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);
}
