/**
 * A strict reader of the XML the sitemaps are written in, for tests: elements with attributes and text, the five
 * predefined entities, one XML declaration. Anything else (an unclosed or crossed tag, a bare `&` or `<`, text
 * outside the root) throws, so a test that reads a sitemap has also checked that it is well formed.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_][\w.:-]*$/;

function unescape(raw: string, at: number): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '<') throw new Error(`a bare "<" at ${at + i}`);
    if (c !== '&') {
      out += c;
      continue;
    }
    const end = raw.indexOf(';', i);
    const entity = end < 0 ? undefined : ENTITIES[raw.slice(i + 1, end)];
    if (entity === undefined) throw new Error(`a bare "&" at ${at + i}`);
    out += entity;
    i = end;
  }
  return out;
}

export function parseXml(xml: string): XmlElement {
  const declaration = '<?xml version="1.0" encoding="UTF-8"?>';
  if (!xml.startsWith(declaration)) throw new Error('no XML declaration');
  let i = declaration.length;
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  while (i < xml.length) {
    const open = xml.indexOf('<', i);
    const text = xml.slice(i, open < 0 ? xml.length : open);
    if (stack.length > 0) stack[stack.length - 1]!.text += unescape(text, i);
    else if (text.trim() !== '') throw new Error(`text outside the root element at ${i}`);
    if (open < 0) break;
    const close = xml.indexOf('>', open);
    if (close < 0) throw new Error(`an unclosed tag at ${open}`);
    const tag = xml.slice(open + 1, close);
    i = close + 1;
    if (tag.startsWith('/')) {
      const element = stack.pop();
      if (!element || element.name !== tag.slice(1))
        throw new Error(`</${tag.slice(1)}> closes <${element?.name ?? 'nothing'}> at ${open}`);
      if (stack.length === 0) root = element;
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const [name = '', ...rest] = (selfClosing ? tag.slice(0, -1) : tag).trim().split(/\s+(?=[^\s=]+=)/);
    if (!NAME.test(name)) throw new Error(`a tag without a name at ${open}`);
    if (root) throw new Error('a second root element');
    const attributes: Record<string, string> = {};
    for (const attribute of rest) {
      const eq = attribute.indexOf('=');
      const key = attribute.slice(0, eq);
      const quoted = attribute.slice(eq + 1).trim();
      if (!NAME.test(key) || quoted.length < 2 || quoted[0] !== '"' || quoted[quoted.length - 1] !== '"')
        throw new Error(`a bad attribute ${attribute} at ${open}`);
      attributes[key] = unescape(quoted.slice(1, -1), open);
    }
    const element: XmlElement = { name, attributes, children: [], text: '' };
    if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
    if (selfClosing) {
      if (stack.length === 0) root = element;
    } else stack.push(element);
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/** The text of each child element named `name`. */
export const childTexts = (element: XmlElement, name: string) =>
  element.children.filter((c) => c.name === name).map((c) => c.text);
