import type { Brand } from '../../shared/schemas/brand-registry.js';

/**
 * The one layout every mail is drawn in, from a small list of blocks, as HTML and as plain text with the same
 * content. The HTML is what mail clients keep: tables for layout, inline styles only, no scripts, no external
 * styles or images; every value is escaped.
 */
export type MailBlock =
  | { paragraph: string; strong?: boolean }
  /** Label and value pairs (what was bought, the line items); `emphasis` marks a total. */
  | { facts: { label: string; value: string; emphasis?: boolean }[] }
  | { button: { label: string; href: string } };

export interface MailContent {
  subject: string;
  /** The line mail clients show beside the subject before the mail is opened. */
  preheader: string;
  heading: string;
  blocks: MailBlock[];
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/** What the layout shows of a brand. */
export interface MailBrand {
  name: string;
  theme: Pick<Brand['theme'], 'primary' | 'primaryContrast' | 'ink' | 'surface'>;
  /** The footer's support address: the brand's, or the sender address when it has none. */
  supportEmail: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Only web links become buttons: anything else (a `javascript:` address) is dropped from the HTML. */
function safeHref(href: string): string | null {
  try {
    const url = new URL(href);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const MUTED_BORDER = '#e5e7eb';
const PAGE_BACKGROUND = '#f3f4f6';

function htmlBlock(block: MailBlock, brand: MailBrand): string {
  const { theme } = brand;
  if ('paragraph' in block)
    return (
      `<p style="margin:0 0 16px 0;font-size:16px;line-height:24px;color:${theme.ink};` +
      `${block.strong ? 'font-weight:bold;' : ''}">${escapeHtml(block.paragraph)}</p>`
    );
  if ('facts' in block) {
    const rows = block.facts
      .map((f) => {
        const weight = f.emphasis ? 'font-weight:bold;' : '';
        const border = f.emphasis ? `border-top:1px solid ${MUTED_BORDER};` : '';
        const cell = `font-size:14px;line-height:20px;color:${theme.ink};${weight}${border}`;
        return (
          `<tr><td style="padding:6px 12px 6px 0;${cell}" valign="top">${escapeHtml(f.label)}</td>` +
          `<td style="padding:6px 0;${cell}" ` +
          `align="right" valign="top">${escapeHtml(f.value)}</td></tr>`
        );
      })
      .join('');
    return (
      `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" ` +
      `style="margin:0 0 16px 0;border-collapse:collapse">${rows}</table>`
    );
  }
  const href = safeHref(block.button.href);
  if (!href) return '';
  return (
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px 0">` +
    `<tr><td align="center" bgcolor="${theme.primary}" style="border-radius:6px;background:${theme.primary}">` +
    `<a href="${escapeHtml(href)}" target="_blank" style="display:inline-block;padding:12px 24px;font-family:${FONT};` +
    `font-size:16px;font-weight:bold;line-height:20px;color:${theme.primaryContrast};text-decoration:none;` +
    `border-radius:6px">${escapeHtml(block.button.label)}</a></td></tr></table>`
  );
}

function textBlock(block: MailBlock): string {
  if ('paragraph' in block) return block.paragraph;
  if ('facts' in block) return block.facts.map((f) => `${f.label}: ${f.value}`).join('\n');
  return `${block.button.label}: ${block.button.href}`;
}

function footerText(brand: MailBrand): string {
  return `Questions? Write to ${brand.supportEmail}. ${brand.name}`;
}

/** The mail as HTML (the brand's colours and name, a footer with its support address) and as plain text. */
export function layoutMail(content: MailContent, brand: MailBrand): RenderedMail {
  const { theme } = brand;
  const support = escapeHtml(brand.supportEmail);
  const html =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(content.subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:${PAGE_BACKGROUND}">` +
    `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(content.preheader)}</div>` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" ` +
    `style="background:${PAGE_BACKGROUND}"><tr><td align="center" style="padding:24px 12px">` +
    `<table role="presentation" width="600" cellpadding="0" cellspacing="0" border="0" ` +
    `style="width:100%;max-width:600px;background:${theme.surface};font-family:${FONT};color:${theme.ink}">` +
    `<tr><td bgcolor="${theme.primary}" style="background:${theme.primary};color:${theme.primaryContrast};` +
    `padding:20px 24px;font-size:20px;font-weight:bold;line-height:28px">${escapeHtml(brand.name)}</td></tr>` +
    `<tr><td style="padding:24px">` +
    `<h1 style="margin:0 0 16px 0;font-size:22px;line-height:30px;color:${theme.ink}">` +
    `${escapeHtml(content.heading)}</h1>` +
    content.blocks.map((b) => htmlBlock(b, brand)).join('') +
    `</td></tr>` +
    `<tr><td style="padding:16px 24px;border-top:1px solid ${MUTED_BORDER};font-size:12px;line-height:18px;` +
    `color:${theme.ink}">Questions? Write to <a href="mailto:${support}" style="color:${theme.primary}">` +
    `${support}</a>. ${escapeHtml(brand.name)}</td></tr>` +
    `</table></td></tr></table></body></html>`;
  const text = [brand.name, '', content.heading, '', ...content.blocks.map(textBlock).flatMap((t) => [t, ''])]
    .concat(['--', footerText(brand), ''])
    .join('\n');
  return { subject: content.subject.replace(/[\r\n]+/g, ' '), html, text };
}
