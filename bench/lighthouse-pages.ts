/**
 * Lighthouse over pages of a running storefront with its default mobile settings (Moto G Power screen,
 * simulated slow 4G and 4× CPU slowdown): the scores come from a simulation of the recorded load, so they
 * move far less with this machine's noise than the load figures do.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { onCleanup } from './children.js';
import { CATEGORIES, failingAudits, type AuditLike, type FailingAudit } from './lighthouse-audits.js';
import { summarizeDetails } from './lighthouse-details.js';

/** Debian's Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

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
  bestPractices?: number;
  seo?: number;
  fcpMs?: number;
  lcpMs?: number;
  tbtMs?: number;
  cls?: number;
  /** Why there are no numbers. */
  error?: string;
  /** Every audit of the four categories scoring below 1 (informative, manual and not-applicable ones left out). */
  failingAudits?: FailingAudit[];
  /** The LCP element and its phases (Lighthouse's "Largest Contentful Paint element"), passing or not. */
  lcpElement?: string[];
  /** The median run's whole report, saved beside the other runs'. */
  reportFile?: string;
  lighthouseVersion?: string;
  warnings?: string[];
  /** Runs attempted (failed ones included). */
  runs?: number;
  /** Every run's performance score, lowest first, when there was more than one. */
  performanceScores?: number[];
  /** Why each run that gave no score failed, so a median of fewer runs than asked is never silent. */
  failedRuns?: string[];
}

export async function lighthousePages(
  base: string,
  pages: { name: string; path: string }[],
  chromePath: string,
  options: {
    runs: number;
    perRunTimeoutMs: number;
    /** Where each run's whole report is written as JSON. */
    saveDir?: string;
    /** Called before a page's first run. */
    warm?: (page: { name: string; path: string }) => Promise<void>;
  },
): Promise<PageScore[]> {
  let chrome: LaunchedChrome;
  try {
    chrome = await launch({ chromePath, chromeFlags: CHROME_FLAGS, handleSIGINT: false, logLevel: 'silent' });
  } catch (err) {
    return pages.map((p) => ({ ...p, error: `Chromium did not start: ${message(err)}` }));
  }
  const forget = onCleanup(() => chrome.kill());
  try {
    if (options.saveDir) {
      mkdirSync(options.saveDir, { recursive: true });
      // Reports of an earlier run would pass for this one's.
      for (const f of readdirSync(options.saveDir)) if (/-run\d+\.json$/.test(f)) rmSync(path.join(options.saveDir, f));
    }
    const scores: PageScore[] = [];
    for (const page of pages) {
      const runs: PageScore[] = [];
      await options.warm?.(page);
      // A run that fails (Lighthouse's NO_NAVSTART "please run Lighthouse again", a timeout) is replaced, up to
      // two more attempts, so the median is of the runs asked for; the failures stay listed.
      const attempts = options.runs + Math.min(2, options.runs);
      for (let i = 0; i < attempts && runs.filter((r) => !r.error).length < options.runs; i++) {
        const file = options.saveDir ? path.join(options.saveDir, `${page.name}-run${i + 1}.json`) : undefined;
        runs.push(await onePage(base, page, chrome.port, options.perRunTimeoutMs, file));
      }
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
  const scored = runs
    .filter((r) => r.performance !== undefined && !r.error)
    .sort((a, b) => a.performance! - b.performance!);
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

async function onePage(
  base: string,
  page: { name: string; path: string },
  port: number,
  timeoutMs: number,
  file: string | undefined,
): Promise<PageScore> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const run = lighthouse(base + page.path, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
    });
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no result within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    const result = await Promise.race([run, timeout]);
    const lhr = result?.lhr;
    if (!lhr) return { ...page, error: 'Lighthouse returned no result' };
    if (file) writeFileSync(file, JSON.stringify(lhr));
    if (lhr.runtimeError) return { ...page, error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` };
    const audit = (id: string) => lhr.audits[id]?.numericValue;
    const score = (id: string) => {
      const s = lhr.categories[id]?.score;
      return typeof s === 'number' ? Math.round(s * 100) : undefined;
    };
    return {
      ...page,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      fcpMs: audit('first-contentful-paint'),
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      failingAudits: failingAudits(lhr.categories, lhr.audits as Record<string, AuditLike | undefined>),
      lcpElement: summarizeDetails(lhr.audits['largest-contentful-paint-element']?.details),
      ...(file ? { reportFile: file } : {}),
      lighthouseVersion: lhr.lighthouseVersion,
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
