import { applyEdits, findNodeAtLocation, modify, parseTree, type Edit, type JSONPath, type Node } from 'jsonc-parser';

/**
 * Changes to a JSON file's text at a path, each touching only the characters it must: the rest of the file keeps
 * its bytes, its indentation and its one-line objects. Values are replaced and removed with jsonc-parser's
 * `modify`; what `modify` would lay out in its own style (a field added to a one-line object, a row added among
 * rows, a row moved) is written here in the file's own: a new value takes the indentation of its neighbours, and
 * is kept on one line when it fits there, as the shipped files are.
 */

/** The longest line a new value is written on before it is spread over several, as the shipped files are. */
const LINE_WIDTH = 120;

interface Style {
  /** One level of indentation. */
  unit: string;
  eol: string;
}

/** The file's indentation unit (the first indented line's) and line ending. */
export function styleOf(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const first = /\n([ \t]+)\S/.exec(text)?.[1];
  const unit = !first ? '  ' : first.startsWith('\t') ? '\t' : first;
  return { unit, eol };
}

/** A value on one line, spaced as a formatter writes it: `{ "a": 1, "b": ["x", "y"] }`. */
export function oneLine(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${oneLine(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * A value written at `indent`, after `lead` characters on its line: on one line when it fits, else spread with
 * each member on its own line (and each member again on one line when it fits). `spread` spreads the outer level
 * whatever its width, as a row among rows that are spread.
 */
export function printValue(value: unknown, indent: string, style: Style, lead = 0, spread = false): string {
  const flat = oneLine(value);
  const container = value !== null && typeof value === 'object';
  const empty = container && Object.keys(value).length === 0;
  if (!container || empty || (!spread && indent.length + lead + flat.length <= LINE_WIDTH)) return flat;
  const inner = indent + style.unit;
  if (Array.isArray(value)) {
    const items = value.map((v) => inner + printValue(v, inner, style));
    return `[${style.eol}${items.join(`,${style.eol}`)}${style.eol}${indent}]`;
  }
  const members = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => {
      const key = `${JSON.stringify(k)}: `;
      return inner + key + printValue(v, inner, style, key.length);
    });
  return `{${style.eol}${members.join(`,${style.eol}`)}${style.eol}${indent}}`;
}

/** The whitespace a line starts with, for the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

const spans = (text: string, node: Node) => text.slice(node.offset, node.offset + node.length).includes('\n');
const end = (node: Node) => node.offset + node.length;

/** Whether the text between a container's opening bracket and its first member breaks the line. */
function isSpread(text: string, container: Node): boolean {
  const first = container.children?.[0];
  return first ? text.slice(container.offset, first.offset).includes('\n') : false;
}

/** Sets the value at `path`, adding the fields above it that are missing; `undefined` removes it. */
export function setValue(text: string, path: JSONPath, value: unknown): string {
  const tree = parseTree(text);
  if (!tree) throw new Error('the text is not JSON');
  const node = findNodeAtLocation(tree, path);
  if (value === undefined) {
    if (!node) return text;
    // The last member out leaves `{}` or `[]`, not the space that was around it.
    const container = node.parent?.type === 'property' ? node.parent.parent : node.parent;
    if (container?.children?.length === 1)
      return applyEdits(text, [
        { offset: container.offset, length: container.length, content: container.type === 'array' ? '[]' : '{}' },
      ]);
    return applyEdits(text, modify(text, path, undefined, {}));
  }
  if (node) {
    if (node.type !== 'object' && node.type !== 'array' && (value === null || typeof value !== 'object'))
      return applyEdits(text, modify(text, path, value, {}));
    // A whole object or list replaced: written in the file's style, where the old one was.
    const property = node.parent?.type === 'property' ? node.parent : null;
    const lead = property ? node.offset - property.offset : 0;
    const content = printValue(value, indentAt(text, node.offset), styleOf(text), lead, spans(text, node));
    return applyEdits(text, [{ offset: node.offset, length: node.length, content }]);
  }
  // The nearest object that is there takes the first missing field, holding the rest of the path.
  let depth = path.length - 1;
  let parent = findNodeAtLocation(tree, path.slice(0, depth));
  while (!parent && depth > 0) parent = findNodeAtLocation(tree, path.slice(0, --depth));
  if (!parent || parent.type !== 'object')
    throw new Error(`nothing at ${JSON.stringify(path.slice(0, depth))} holds fields`);
  let nested = value;
  for (let i = path.length - 1; i > depth; i--) {
    const key = path[i]!;
    if (typeof key === 'number') throw new Error(`there is no list at ${JSON.stringify(path.slice(0, i))}`);
    nested = { [key]: nested };
  }
  const key = path[depth];
  if (typeof key !== 'string') throw new Error(`${JSON.stringify(path.slice(0, depth))} is not a list`);
  return applyEdits(text, [addMember(text, parent, `${JSON.stringify(key)}: `, nested)]);
}

/** The edit adding a member (a field `lead` is its `"name": `, an item's is empty) at the end of a container. */
function addMember(text: string, container: Node, lead: string, value: unknown, at?: number): Edit {
  const style = styleOf(text);
  const members = container.children ?? [];
  const open = container.type === 'object' ? '{' : '[';
  const close = container.type === 'object' ? '}' : ']';
  if (members.length === 0) {
    // An empty container: spread when the value is, else on one line like `{ "a": 1 }`.
    const indent = indentAt(text, container.offset);
    const inner = indent + style.unit;
    const printed = printValue(value, inner, style, lead.length);
    const oneLiner = !printed.includes('\n') && indent.length + lead.length + printed.length + 4 <= LINE_WIDTH;
    const content = oneLiner
      ? container.type === 'object'
        ? `{ ${lead}${printed} }`
        : `[${printed}]`
      : `${open}${style.eol}${inner}${lead}${printed}${style.eol}${indent}${close}`;
    return { offset: container.offset, length: container.length, content };
  }
  const index = at ?? members.length;
  const spread = isSpread(text, container);
  const neighbour = members[Math.min(index, members.length - 1)]!;
  const member = container.type === 'object' ? neighbour.children?.[1] : neighbour;
  // A row among rows written over several lines is written over several lines too.
  const spreadValue = spread && container.type === 'array' && !!member && spans(text, member);
  if (spread) {
    const indent = indentAt(text, neighbour.offset);
    const printed = lead + printValue(value, indent, style, lead.length, spreadValue);
    return index < members.length
      ? { offset: neighbour.offset, length: 0, content: `${printed},${style.eol}${indent}` }
      : { offset: end(neighbour), length: 0, content: `,${style.eol}${indent}${printed}` };
  }
  const printed = lead + oneLine(value);
  return index < members.length
    ? { offset: neighbour.offset, length: 0, content: `${printed}, ` }
    : { offset: end(neighbour), length: 0, content: `, ${printed}` };
}

/** Inserts `value` into the list at `path` so that it is item `index` (the end when `index` is the length). */
export function insertItem(text: string, path: JSONPath, index: number, value: unknown): string {
  const tree = parseTree(text);
  const list = tree && findNodeAtLocation(tree, path);
  if (!list) return setValue(text, path, [value]);
  if (list.type !== 'array') throw new Error(`${JSON.stringify(path)} is not a list`);
  const count = list.children?.length ?? 0;
  return applyEdits(text, [addMember(text, list, '', value, Math.max(0, Math.min(index, count)))]);
}

/** Removes item `index` of the list at `path`, with the comma and line break that went with it. */
export const removeItem = (text: string, path: JSONPath, index: number) => setValue(text, [...path, index], undefined);

/**
 * Moves item `from` of the list at `path` to `to`: the items between change places and every separator stays
 * where it was, so each item keeps its own text and the list its layout.
 */
export function moveItem(text: string, path: JSONPath, from: number, to: number): string {
  const tree = parseTree(text);
  const list = tree && findNodeAtLocation(tree, path);
  const items = list?.type === 'array' ? (list.children ?? []) : [];
  if (from === to || !items[from] || !items[to]) return text;
  const order = items.map((_, i) => i);
  order.splice(to, 0, ...order.splice(from, 1));
  const low = Math.min(from, to);
  const high = Math.max(from, to);
  let content = '';
  for (let i = low; i <= high; i++) {
    const item = items[order[i]!]!;
    content += text.slice(item.offset, end(item));
    if (i < high) content += text.slice(end(items[i]!), items[i + 1]!.offset);
  }
  const start = items[low]!.offset;
  return applyEdits(text, [{ offset: start, length: end(items[high]!) - start, content }]);
}
