/**
 * A Lighthouse audit's details (tables, lists, checklists, request chains) in a few short lines of text: which
 * elements, resources or messages, with their figures.
 */

const ITEMS_SHOWN = 6;
const SUB_ITEMS_SHOWN = 3;
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
    const subCells = sub.slice(0, SUB_ITEMS_SHOWN).flatMap((s) =>
      headings.flatMap((h) => {
        if (!h.subItemsHeading) return [];
        const shown = value(s[h.subItemsHeading.key], h.subItemsHeading.valueType ?? h.valueType);
        return shown ? [shown] : [];
      }),
    );
    const more = sub.length > SUB_ITEMS_SHOWN ? `; ${sub.length - SUB_ITEMS_SHOWN} more` : '';
    return `${cells.join(', ')}${subCells.length ? ` [${subCells.join('; ')}${more}]` : ''}`;
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
