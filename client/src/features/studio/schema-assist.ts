import {
  findNodeAtLocation,
  findNodeAtOffset,
  getLocation,
  getNodePath,
  getNodeValue,
  parseTree,
  type JSONPath,
  type Node,
} from 'jsonc-parser';

/**
 * Completion and hover documentation for a segment file, read from its JSON Schema: the same schema the
 * server validates with and any JSON editor reads through `$schema`. Pure functions of the text, an offset and
 * the schema, so they are tested without an editor.
 */

export interface JsonSchema {
  type?: string | string[];
  description?: string;
  examples?: unknown[];
  default?: unknown;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  [key: string]: unknown;
}

export interface Suggestion {
  label: string;
  /** What is inserted in place of `from`…`to`. */
  insert: string;
  from: number;
  to: number;
  /** property or value */
  type: 'property' | 'value';
  detail?: string;
  info?: string;
}

/** `rows[2].filter.categories[0]` → `['rows', 2, 'filter', 'categories', 0]`. */
export function parsePath(path: string): JSONPath {
  const out: JSONPath = [];
  for (const m of path.replace(/^\(merged\)\s*/, '').matchAll(/([^.[\]]+)|\[(\d+)\]/g))
    out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

/** A schema with its `$ref` (within the root) followed. */
export function deref(root: JsonSchema, schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; i < 10 && s.$ref; i++) {
    const ref = s.$ref;
    if (!ref.startsWith('#/')) break;
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (node, key) => (node as Record<string, unknown> | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')],
        root,
      );
    if (!target || typeof target !== 'object') break;
    const { $ref: _ref, ...rest } = s;
    s = { ...(target as JsonSchema), ...rest };
  }
  return s;
}

/** Every alternative a schema allows, with `$ref` followed and `oneOf`/`anyOf`/`allOf` spread out. */
export function alternatives(root: JsonSchema, schema: JsonSchema): JsonSchema[] {
  const s = deref(root, schema);
  const branches = s.oneOf ?? s.anyOf;
  if (branches) {
    const { oneOf: _o, anyOf: _a, ...own } = s;
    return branches.flatMap((b) => alternatives(root, { ...own, ...deref(root, b) }));
  }
  if (s.allOf) {
    const { allOf, ...own } = s;
    return [allOf.reduce<JsonSchema>((acc, part) => mergeObject(acc, deref(root, part)), own)];
  }
  return [s];
}

function mergeObject(a: JsonSchema, b: JsonSchema): JsonSchema {
  return {
    ...a,
    ...b,
    properties: { ...a.properties, ...b.properties },
    required: [...(a.required ?? []), ...(b.required ?? [])],
  };
}

/**
 * Keeps the alternatives the document's object agrees with: a row whose `kind` is "events" is an events row,
 * so only the events row's fields are offered.
 */
function matching(root: JsonSchema, candidates: JsonSchema[], node: Node | undefined): JsonSchema[] {
  if (!node || node.type !== 'object') return candidates;
  const value = getNodeValue(node) as Record<string, unknown>;
  const kept = candidates.filter((c) =>
    Object.entries(c.properties ?? {}).every(([key, prop]) => {
      const p = deref(root, prop);
      return p.const === undefined || !(key in value) || value[key] === p.const;
    }),
  );
  return kept.length > 0 ? kept : candidates;
}

/** The schemas that may describe the value at `path` in the document. */
export function schemasAt(root: JsonSchema, tree: Node | undefined, path: JSONPath): JsonSchema[] {
  let candidates = alternatives(root, root);
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    candidates = matching(root, candidates, tree && findNodeAtLocation(tree, path.slice(0, i)));
    const next: JsonSchema[] = [];
    for (const c of candidates) {
      const child =
        typeof segment === 'number'
          ? c.items
          : (c.properties?.[segment] ??
            (typeof c.additionalProperties === 'object' ? c.additionalProperties : undefined));
      if (child) next.push(...alternatives(root, child));
    }
    candidates = next;
    if (candidates.length === 0) return [];
  }
  return matching(root, candidates, tree && findNodeAtLocation(tree, path));
}

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type[0] : s.type);

/** What typing a new property's value starts with, by the property's type. */
function valueStub(s: JsonSchema): string {
  if (s.const !== undefined) return JSON.stringify(s.const);
  switch (typeOf(s)) {
    case 'string':
      return s.enum?.length === 1 ? JSON.stringify(s.enum[0]) : '""';
    case 'array':
      return '[]';
    case 'object':
      return '{}';
    case 'boolean':
      return 'false';
    default:
      return '';
  }
}

/** Documentation for one schema, as a merchandiser reads it: what it does, what is allowed, an example. */
export function describeSchema(schemas: JsonSchema[]): string {
  const s = schemas[0];
  if (!s) return '';
  const parts: string[] = [];
  const description = schemas.map((x) => x.description).find(Boolean);
  if (description) parts.push(description);
  const allowed = [...new Set(schemas.flatMap((x) => (x.const !== undefined ? [x.const] : (x.enum ?? []))))];
  if (allowed.length > 0) parts.push(`Allowed: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`);
  if (s.default !== undefined) parts.push(`Default: ${JSON.stringify(s.default)}`);
  const example = schemas.flatMap((x) => x.examples ?? [])[0];
  if (example !== undefined) parts.push(`Example: ${JSON.stringify(example)}`);
  return parts.join('\n');
}

/** Suggestions at an offset: the fields an object may still have, or the values a field allows. */
export function suggest(root: JsonSchema, text: string, offset: number): Suggestion[] {
  const tree = parseTree(text);
  const location = getLocation(text, offset);
  const previous = location.previousNode;
  const replacing = previous && offset >= previous.offset && offset <= previous.offset + previous.length;
  const from = replacing ? previous.offset : offset;
  // The rest of the word being typed and its closing quote; not the rest of an unterminated string.
  const to = replacing
    ? Math.min(previous.offset + previous.length, offset + (/^[\w$-]*"?/.exec(text.slice(offset))?.[0].length ?? 0))
    : offset;

  if (location.isAtPropertyKey) {
    const objectPath = location.path.slice(0, -1);
    const object = tree && findNodeAtLocation(tree, objectPath);
    const present = new Set(object?.type === 'object' ? Object.keys(getNodeValue(object) as object) : []);
    const typed = replacing && previous.type === 'string' ? String(previous.value) : null;
    const seen = new Map<string, Suggestion>();
    for (const candidate of schemasAt(root, tree, objectPath)) {
      for (const [key, prop] of Object.entries(candidate.properties ?? {})) {
        if (seen.has(key) || (present.has(key) && key !== typed)) continue;
        const alts = alternatives(root, prop);
        const required = candidate.required?.includes(key);
        seen.set(key, {
          label: key,
          insert: `${JSON.stringify(key)}: ${valueStub(alts[0] ?? {})}`,
          from,
          to,
          type: 'property',
          ...(required ? { detail: 'required' } : {}),
          info: describeSchema(alts),
        });
      }
    }
    return [...seen.values()];
  }

  const values = new Map<string, Suggestion>();
  for (const s of schemasAt(root, tree, location.path)) {
    const allowed: unknown[] =
      s.const !== undefined ? [s.const] : (s.enum ?? (typeOf(s) === 'boolean' ? [true, false] : []));
    for (const v of allowed) {
      const insert = JSON.stringify(v);
      if (!values.has(insert))
        values.set(insert, { label: insert, insert, from, to, type: 'value', info: describeSchema([s]) });
    }
  }
  return [...values.values()];
}

/** The documentation for the field whose name or value is at `offset`, or null. */
export function hoverAt(
  root: JsonSchema,
  text: string,
  offset: number,
): { from: number; to: number; text: string } | null {
  const tree = parseTree(text);
  if (!tree) return null;
  const node = findNodeAtOffset(tree, offset, true);
  if (!node || !node.parent || node.parent.type !== 'property') return null;
  const property = node.parent;
  const key = property.children?.[0];
  const value = property.children?.[1];
  if (!key) return null;
  const path = value ? getNodePath(value) : [...getNodePath(property.parent!), String(key.value)];
  const schemas = schemasAt(root, tree, path);
  const doc = describeSchema(schemas);
  if (!doc) return null;
  return { from: node.offset, to: node.offset + node.length, text: `${String(key.value)}\n${doc}` };
}

/** The span a problem points at: its line and column when given, else the value at its JSON path. */
export function problemRange(
  text: string,
  problem: { line?: number | undefined; column?: number | undefined; path: string },
): { from: number; to: number } {
  const tree = parseTree(text);
  let from: number | null = null;
  if (problem.line !== undefined && problem.column !== undefined) {
    const lines = text.split('\n');
    const line = Math.min(Math.max(problem.line, 1), lines.length);
    from = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + Math.max(problem.column - 1, 0);
    from = Math.min(from, text.length);
  }
  if (from === null && tree) {
    const path = parsePath(problem.path);
    let node: Node | undefined;
    for (let i = path.length; i >= 0 && !node; i--) node = findNodeAtLocation(tree, path.slice(0, i));
    if (node) return { from: node.offset, to: node.offset + node.length };
  }
  if (from === null) return { from: 0, to: Math.min(text.length, 1) };
  const at = tree && findNodeAtOffset(tree, from, false);
  // A scalar starting where the problem points is marked whole; an object or array only at its first character.
  if (at && at.offset === from && at.type !== 'object' && at.type !== 'array') return { from, to: from + at.length };
  return { from, to: Math.min(from + 1, text.length) };
}

/** `did you mean "venues"?` in a problem's sentence: the replacement the editor offers as a fix. */
export function suggestedFix(message: string): string | null {
  return /did you mean "([^"]+)"/i.exec(message)?.[1] ?? null;
}
