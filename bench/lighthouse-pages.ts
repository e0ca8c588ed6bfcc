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

/** Modes whose audits are never "failing": shown for information, checked by hand, or not relevant to the page. */
const NOT_FAILING = new Set(['informative', 'manual', 'notApplicable']);

interface AuditLike {
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

const ITEMS_SHOWN = 6;
const TEXT_MAX = 160;

const clip = (text: string, max = TEXT_MAX) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** A resource's address without the page's origin (`/assets/index-abc.js`), others as they are. */
function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:'
      ? /^(127\.0\.0\.1|localhost)(:|$)/.test(u.host)
        ? `${u.pathname}${u.search}`
        : `${u.host}${u.pathname}${u.search}`
      : clip(url, 80);
  } catch {
    return clip(url, 80);
  }
}

function value(v: unknown, type: string | undefined): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    switch (o.type) {
      case 'node': {
        const label =
          typeof o.snippet === 'string'
            ? clip(o.snippet, 120)
            : typeof o.nodeLabel === 'string'
              ? clip(o.nodeLabel, 80)
              : undefined;
        const selector = typeof o.selector === 'string' ? ` [${clip(o.selector, 80)}]` : '';
        const explanation = typeof o.explanation === 'string' ? ` (${clip(o.explanation, 200)})` : '';
        return label ? `${label}${selector}${explanation}` : undefined;
      }
      case 'source-location':
        return typeof o.url === 'string'
          ? `${shortUrl(o.url)}:${Number(o.line) + 1}:${Number(o.column) + 1}`
          : undefined;
      case 'url':
        return typeof o.value === 'string' ? shortUrl(o.value) : undefined;
      case 'link':
        return typeof o.text === 'string' ? clip(o.text, 80) : undefined;
      case 'code':
      case 'text':
        return typeof o.value === 'string' ? clip(o.value) : undefined;
      case 'numeric':
        return typeof o.value === 'number' ? value(o.value, 'numeric') : undefined;
      default:
        return undefined;
    }
  }
  if (typeof v === 'number') {
    if (type === 'bytes') return `${(v / 1024).toFixed(1)} KiB`;
    if (type === 'ms' || type === 'timespanMs') return duration(v);
    return Number.isInteger(v) ? String(v) : v.toFixed(3);
  }
  if (typeof v === 'string') return type === 'url' ? shortUrl(v) : clip(v);
  if (typeof v === 'boolean') return String(v);
  return undefined;
}

/** Milliseconds as Lighthouse shows them: `457 ms`, or a cache lifetime as `1 d`. */
function duration(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['min', 60_000],
  ];
  for (const [unit, size] of units) if (ms >= size) return `${Number((ms / size).toFixed(1))} ${unit}`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

interface NetworkNode {
  url: string;
  navStartToEndTime: number;
  transferSize?: number;
  isLongest?: boolean;
  children?: Record<string, NetworkNode>;
}

/** A request chain as indented lines, longest chain marked, each request with when it ended and its size. */
function chainLines(chains: Record<string, NetworkNode> | undefined, depth = 0, out: string[] = []): string[] {
  for (const node of Object.values(chains ?? {})) {
    if (out.length >= ITEMS_SHOWN * 2) break;
    const size = node.transferSize ? `, ${(node.transferSize / 1024).toFixed(1)} KiB` : '';
    out.push(
      `${'→ '.repeat(depth)}${shortUrl(node.url)} (ends at ${Math.round(node.navStartToEndTime)} ` +
        `ms${size})${node.isLongest ? ' [longest chain]' : ''}`,
    );
    chainLines(node.children, depth + 1, out);
  }
  return out;
}

interface Heading {
  key: string | null;
  label?: unknown;
  valueType?: string;
  subItemsHeading?: { key: string; valueType?: string };
}

function tableRows(headings: Heading[], items: Record<string, unknown>[]): string[] {
  const label = (h: Heading) => (typeof h.label === 'string' && h.label ? h.label : (h.key ?? ''));
  const rows = items.slice(0, ITEMS_SHOWN).map((item) => {
    const cells = headings.flatMap((h) => {
      const shown = h.key ? value(item[h.key], h.valueType) : undefined;
      return shown ? [`${label(h)}: ${shown}`] : [];
    });
    const sub = (item.subItems as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
    const subCells = sub.slice(0, 3).flatMap((s) =>
      headings.flatMap((h) => {
        if (!h.subItemsHeading) return [];
        const shown = value(s[h.subItemsHeading.key], h.subItemsHeading.valueType ?? h.valueType);
        return shown ? [shown] : [];
      }),
    );
    return `${cells.join(', ')}${subCells.length ? ` [${subCells.join('; ')}${sub.length > 3 ? `; ${sub.length - 3} more` : ''}]` : ''}`;
  });
  if (items.length > ITEMS_SHOWN) rows.push(`…and ${items.length - ITEMS_SHOWN} more`);
  return rows.filter(Boolean);
}

/** An audit's details in a few lines of text: table rows, a list's tables, a checklist's unmet items. */
export function summarizeDetails(details: unknown): string[] {
  if (!details || typeof details !== 'object') return [];
  const d = details as Record<string, unknown>;
  switch (d.type) {
    case 'table':
    case 'opportunity':
      return tableRows(
        (d.headings as Heading[] | undefined) ?? [],
        (d.items as Record<string, unknown>[] | undefined) ?? [],
      );
    case 'list':
      return ((d.items as unknown[] | undefined) ?? []).flatMap((item) => {
        const i = item as Record<string, unknown>;
        if (i.type === 'list-section') {
          const inner = summarizeDetails(i.value);
          const title = typeof i.title === 'string' ? i.title : undefined;
          return title && inner.length === 1 ? [`${title}: ${inner[0]}`] : [...(title ? [`${title}:`] : []), ...inner];
        }
        return summarizeDetails(item);
      });
    case 'checklist':
      return Object.values((d.items as Record<string, { value: boolean; label: unknown }> | undefined) ?? {})
        .filter((c) => !c.value)
        .map((c) => `not met: ${typeof c.label === 'string' ? c.label : ''}`);
    case 'text':
      return typeof d.value === 'string' ? [clip(d.value)] : [];
    case 'network-tree': {
      const longest = (d.longestChain as { duration?: number } | undefined)?.duration;
      return [
        ...(longest !== undefined ? [`longest chain ${Math.round(longest)} ms:`] : []),
        ...chainLines(d.chains as Record<string, NetworkNode> | undefined),
      ];
    }
    case 'criticalrequestchain': {
      const chain = d.longestChain as { duration?: number; length?: number } | undefined;
      return chain?.duration !== undefined
        ? [`longest chain ${Math.round(chain.duration)} ms${chain.length ? `, ${chain.length} requests` : ''}`]
        : [];
    }
    default:
      return [];
  }
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
