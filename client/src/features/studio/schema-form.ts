import { parse, type JSONPath, type ParseError } from 'jsonc-parser';
import { jsonPath } from '../../../../shared/schemas/zod.js';
import { alternatives, deref, parsePath, type JsonSchema } from './schema-assist.js';

/**
 * The form a segment file is edited with, read from its JSON Schema and its text: one control per field the
 * schema describes, its label from the field's name, its help from the field's `description`, its kind from the
 * field's type (a list of values → a select, a number → a number box with the schema's bounds, true/false → a
 * checkbox, text → a text box), and a list of items for a list of objects (rows, tabs, tiles, operations).
 * A row's `kind` (an operation's `op`) picks which of the schema's alternatives describes it. What the form cannot
 * show (a value of the wrong type, a field the schema does not know) is listed so, for the JSON view, and never
 * dropped: the form changes only the paths its controls write. Pure functions of the schema and the text.
 * The schema's rules are the server's (RULES 11.3: five row kinds, each with its own fields; 11.9: an override's
 * operations apply in order, so they are listed and reordered as rows are); the server's check says what is wrong.
 */

export type Path = JSONPath;

export interface Option {
  value: string;
  label: string;
}

interface FieldBase {
  path: Path;
  /** The path as the server's problems write it: `rows[2].filter.categories`. */
  key: string;
  name: string;
  label: string;
  /** The schema's description of the field. */
  help: string;
  required: boolean;
  /** What the field belongs to, by name ("Local Venues"), or '' for the file itself. */
  owner: string;
}

export type FormField =
  | (FieldBase & {
      control: 'text';
      value: string | undefined;
      minLength?: number;
      maxLength?: number;
      example?: string;
    })
  | (FieldBase & {
      control: 'number';
      value: number | undefined;
      integer: boolean;
      min?: number;
      max?: number;
      /** The schema's minimum is exclusive: more than `min`, not `min` itself. */
      aboveMin?: boolean;
    })
  | (FieldBase & { control: 'checkbox'; value: boolean | undefined })
  | (FieldBase & {
      control: 'select';
      value: string | undefined;
      options: Option[];
      defaultValue?: string;
      /** The field that says which alternative an object is (a row's kind): changing it changes its fields. */
      variant?: boolean;
    })
  /** A list of values from a fixed set: a checkbox each. */
  | (FieldBase & { control: 'choices'; value: string[] | undefined; options: Option[] })
  /** A list of words (category slugs): typed separated by commas. */
  | (FieldBase & { control: 'words'; value: string[] | undefined })
  | (FieldBase & { control: 'group'; present: boolean; body: FormObject })
  | (FieldBase & { control: 'list'; list: FormList })
  /** A value the form does not edit: it says why, and the JSON view does. */
  | (FieldBase & { control: 'fixed'; value: unknown; reason: string });

/** An object's controls: its fields, the ones the form does not know, and why it can show no more. */
export interface FormObject {
  path: Path;
  key: string;
  fields: FormField[];
  /** Fields in the file the schema does not describe: kept as they are, edited in the JSON view. */
  unknown: string[];
  /** Set when the object's kind is not one the schema knows, so only the kind can be chosen. */
  note?: string;
}

export interface FormItem {
  path: Path;
  key: string;
  index: number;
  /** What the item is called: its title, name or id. */
  label: string;
  /** Its kind or operation, when it has one. */
  tag?: string;
  body: FormObject | null;
  /** Why the item is not an object the form can show, when it is not. */
  reason?: string;
}

export interface AddChoice {
  /** The kind (or operation) a new item has, or '' when the list's items have no kinds. */
  value: string;
  label: string;
  help: string;
}

export interface FormList {
  path: Path;
  key: string;
  /** One item of the list, in words: "row", "operation", "tab". */
  noun: string;
  items: FormItem[];
  choices: AddChoice[];
  /** The field that names an item's kind (`kind`, `op`), when its items have kinds. */
  variantKey?: string;
  minItems?: number;
  maxItems?: number;
}

export type FormModel =
  { ok: true; root: FormObject; kind: 'page' | 'override' | 'other' } | { ok: false; reason: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type[0] : s.type);
const constOf = (root: JsonSchema, s: JsonSchema, key: string) => {
  const prop = s.properties?.[key];
  return prop ? deref(root, prop).const : undefined;
};

/** `radiusMiles` → "Radius miles", `dateFilter` → "Date filter". */
export function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `rows` → "row", `categories` → "category". */
export function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  return name.endsWith('s') ? name.slice(0, -1) : name;
}

/** The property every alternative fixes to its own value (`kind`, `op`): what tells them apart. */
export function variantKeyOf(root: JsonSchema, alts: JsonSchema[]): string | undefined {
  if (alts.length < 2) return undefined;
  const first = alts[0]!;
  return Object.keys(first.properties ?? {}).find((key) =>
    alts.every((a) => typeof constOf(root, a, key) === 'string'),
  );
}

/** What a value is called in a message: `"five"`, `a list`, `an object`. */
function shown(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (isObject(value)) return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

const wrongType = (value: unknown, wanted: string) =>
  `It holds ${shown(value)}, not ${wanted}, so the form cannot show it. Change it in the JSON view.`;

function describeField(
  root: JsonSchema,
  alts: JsonSchema[],
  value: unknown,
  path: Path,
  name: string,
  required: boolean,
  owner: string,
): FormField {
  const s = alts[0] ?? {};
  const base: FieldBase = {
    path,
    key: jsonPath(path),
    name,
    label: humanize(name),
    help: alts.map((a) => a.description).find(Boolean) ?? '',
    required,
    owner,
  };
  const fixed = (reason: string): FormField => ({ ...base, control: 'fixed', value, reason });
  if (alts.length > 1 && !alts.every((a) => typeOf(a) === 'object'))
    return fixed('The form cannot edit a field that takes values of several types. Change it in the JSON view.');
  const type = typeOf(s);
  switch (type) {
    case 'string': {
      if (value !== undefined && typeof value !== 'string') return fixed(wrongType(value, 'text'));
      if (s.enum) {
        return {
          ...base,
          control: 'select',
          value,
          options: s.enum.map((v) => ({ value: String(v), label: String(v) })),
          ...(typeof s.default === 'string' ? { defaultValue: s.default } : {}),
        };
      }
      const example = s.examples?.find((e) => typeof e === 'string');
      return {
        ...base,
        control: 'text',
        value,
        ...(typeof s.minLength === 'number' ? { minLength: s.minLength } : {}),
        ...(typeof s.maxLength === 'number' ? { maxLength: s.maxLength } : {}),
        ...(example !== undefined ? { example } : {}),
      };
    }
    case 'integer':
    case 'number': {
      if (value !== undefined && typeof value !== 'number') return fixed(wrongType(value, 'a number'));
      const exclusive = typeof s.exclusiveMinimum === 'number';
      const min = exclusive ? (s.exclusiveMinimum as number) : (s.minimum as number | undefined);
      return {
        ...base,
        control: 'number',
        value,
        integer: type === 'integer',
        ...(typeof min === 'number' ? { min } : {}),
        ...(typeof s.maximum === 'number' ? { max: s.maximum } : {}),
        ...(exclusive ? { aboveMin: true } : {}),
      };
    }
    case 'boolean':
      if (value !== undefined && typeof value !== 'boolean') return fixed(wrongType(value, 'true or false'));
      return { ...base, control: 'checkbox', value };
    case 'object': {
      if (value !== undefined && !isObject(value)) return fixed(wrongType(value, 'an object'));
      return {
        ...base,
        control: 'group',
        present: value !== undefined,
        body: describeObject(root, alts, value ?? {}, path, owner),
      };
    }
    case 'array': {
      if (value !== undefined && !Array.isArray(value)) return fixed(wrongType(value, 'a list'));
      const items = s.items ? alternatives(root, s.items) : [];
      const item = items[0];
      const list = value as unknown[] | undefined;
      if (items.length === 1 && typeOf(item!) === 'string') {
        if (list?.some((v) => typeof v !== 'string')) return fixed(wrongType(value, 'a list of words'));
        const words = list as string[] | undefined;
        if (item!.enum)
          return {
            ...base,
            control: 'choices',
            value: words,
            options: item!.enum.map((v) => ({ value: String(v), label: String(v) })),
          };
        return { ...base, control: 'words', value: words };
      }
      if (items.length > 0 && items.every((a) => typeOf(a) === 'object'))
        return { ...base, control: 'list', list: describeList(root, s, items, list ?? [], path, name) };
      return fixed('The form cannot edit this kind of list. Change it in the JSON view.');
    }
    default:
      return fixed('The form cannot edit this field. Change it in the JSON view.');
  }
}

/** The alternatives an object's value picks: the one its kind names, all of them when it names none. */
function chosen(root: JsonSchema, alts: JsonSchema[], value: Json, variantKey: string | undefined): JsonSchema[] {
  if (!variantKey) return alts;
  return alts.filter((a) => constOf(root, a, variantKey) === value[variantKey]);
}

export function describeObject(root: JsonSchema, alts: JsonSchema[], value: Json, path: Path, owner = ''): FormObject {
  const key = jsonPath(path);
  const variantKey = variantKeyOf(root, alts);
  const picked = chosen(root, alts, value, variantKey);
  const fields: FormField[] = [];
  if (variantKey) {
    const current = value[variantKey];
    const kinds = alts.map((a) => String(constOf(root, a, variantKey)));
    const schema = picked[0]?.properties?.[variantKey];
    fields.push({
      path: [...path, variantKey],
      key: jsonPath([...path, variantKey]),
      name: variantKey,
      label: humanize(variantKey),
      help: (schema && deref(root, schema).description) ?? alts.map((a) => a.description).find(Boolean) ?? '',
      required: true,
      owner,
      control: 'select',
      value: typeof current === 'string' ? current : undefined,
      options: [
        // A kind the schema does not know stays shown as it is, marked, until another is chosen.
        ...(typeof current === 'string' && !kinds.includes(current)
          ? [{ value: current, label: `${current} (not a ${variantKey})` }]
          : []),
        ...kinds.map((k) => ({ value: k, label: k })),
      ],
      variant: true,
    });
  }
  if (picked.length !== 1) {
    return {
      path,
      key,
      fields,
      unknown: [],
      note: variantKey
        ? `Choose its ${variantKey} to edit its other fields; what it holds now is kept.`
        : 'The form cannot tell which shape this object has. Change it in the JSON view.',
    };
  }
  const schema = picked[0]!;
  const properties = Object.entries(schema.properties ?? {}).filter(([k]) => k !== '$schema' && k !== variantKey);
  for (const [name, prop] of properties)
    fields.push(
      describeField(
        root,
        alternatives(root, prop),
        value[name],
        [...path, name],
        name,
        schema.required?.includes(name) ?? false,
        owner,
      ),
    );
  const known = new Set(Object.keys(schema.properties ?? {}));
  const unknown = Object.keys(value).filter((k) => !known.has(k) && k !== '$schema');
  return { path, key, fields, unknown };
}

/** The name an item is shown by: its title (or its row's), name, id or slug, else its place. */
export function itemLabel(value: unknown, index: number, noun: string): string {
  if (isObject(value)) {
    const row = isObject(value.row) ? value.row : {};
    const named = [value.title, value.name, row.title, value.id, value.slug].find(
      (v) => typeof v === 'string' && v.trim() !== '',
    );
    if (typeof named === 'string') {
      // An operation on a row names the row it finds: "remove browse-by-category".
      if (typeof value.op === 'string' && typeof value.id === 'string' && named !== value.id)
        return `${named} (${value.op} ${value.id})`;
      if (typeof value.op === 'string' && typeof value.id === 'string') return `${value.op} ${value.id}`;
      return named;
    }
  }
  return `${humanize(noun)} ${index + 1}`;
}

function describeList(
  root: JsonSchema,
  schema: JsonSchema,
  items: JsonSchema[],
  value: unknown[],
  path: Path,
  name: string,
): FormList {
  const noun = singular(name);
  const variantKey = variantKeyOf(root, items);
  return {
    path,
    key: jsonPath(path),
    noun,
    items: value.map((v, index) => {
      const itemPath = [...path, index];
      const tag = variantKey && isObject(v) && typeof v[variantKey] === 'string' ? String(v[variantKey]) : undefined;
      const label = itemLabel(v, index, noun);
      return {
        path: itemPath,
        key: jsonPath(itemPath),
        index,
        label,
        ...(tag ? { tag } : {}),
        body: isObject(v) ? describeObject(root, items, v, itemPath, label) : null,
        ...(isObject(v) ? {} : { reason: wrongType(v, 'an object') }),
      };
    }),
    choices: variantKey
      ? items.map((a) => {
          const kind = String(constOf(root, a, variantKey));
          const prop = a.properties?.[variantKey];
          return { value: kind, label: kind, help: (prop && deref(root, prop).description) ?? a.description ?? '' };
        })
      : [{ value: '', label: noun, help: items[0]?.description ?? '' }],
    ...(variantKey ? { variantKey } : {}),
    ...(typeof schema.minItems === 'number' ? { minItems: schema.minItems } : {}),
    ...(typeof schema.maxItems === 'number' ? { maxItems: schema.maxItems } : {}),
  };
}

/** The whole form for a file's text, or why there is none (the text is not a JSON object). */
export function describeForm(root: JsonSchema, text: string): FormModel {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0)
    return { ok: false, reason: 'This draft is not valid JSON, so the form cannot show it. Fix it in the JSON view.' };
  if (!isObject(value))
    return {
      ok: false,
      reason: 'This draft is not a JSON object, so the form cannot show it. Change it in the JSON view.',
    };
  const kind = Array.isArray(value.rows) ? 'page' : 'operations' in value || 'extends' in value ? 'override' : 'other';
  return { ok: true, kind, root: describeObject(root, alternatives(root, root), value, []) };
}

/** Whether a value fits a schema as far as the form tells: its type, its allowed values, its bounds. */
function fits(root: JsonSchema, schema: JsonSchema, value: unknown): boolean {
  const alts = alternatives(root, schema);
  return alts.some((s) => {
    if (s.const !== undefined) return value === s.const;
    if (s.enum) return s.enum.includes(value);
    switch (typeOf(s)) {
      case 'string':
        return typeof value === 'string';
      case 'integer':
        return Number.isInteger(value) && withinBounds(s, value as number);
      case 'number':
        return typeof value === 'number' && withinBounds(s, value);
      case 'boolean':
        return typeof value === 'boolean';
      case 'array':
        return Array.isArray(value);
      case 'object':
        return isObject(value);
      default:
        return true;
    }
  });
}

function withinBounds(s: JsonSchema, n: number): boolean {
  if (typeof s.minimum === 'number' && n < s.minimum) return false;
  if (typeof s.exclusiveMinimum === 'number' && n <= s.exclusiveMinimum) return false;
  return !(typeof s.maximum === 'number' && n > s.maximum);
}

/** The alternative of a list's items (or an object's) whose kind is `kind`. */
function alternativeFor(root: JsonSchema, alts: JsonSchema[], kind: string): JsonSchema | undefined {
  const key = variantKeyOf(root, alts);
  return key ? alts.find((a) => constOf(root, a, key) === kind) : alts[0];
}

/** A slug not yet among `taken`: `promos`, else `promos-2`, `promos-3`… */
function freeId(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** A value for a required field that is missing: its fixed value, its default, an example, or an empty one. */
function starter(root: JsonSchema, schema: JsonSchema, name: string): unknown {
  const alts = alternatives(root, schema);
  const s = alts[0] ?? {};
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (s.examples?.[0] !== undefined) return s.examples[0];
  if (s.enum?.[0] !== undefined) return s.enum[0];
  switch (typeOf(s)) {
    case 'string':
      return name === 'id' ? 'new' : '';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return alts.length > 1 ? newValue(root, alts[0]!, []) : {};
  }
}

/**
 * A new item of a list, of the kind chosen: the schema's own example of that kind (a new promos row starts as the
 * example promos row), or its required fields filled in, with an id no other item of the list has (for an
 * operation, the id of the row it brings).
 */
export function newItem(root: JsonSchema, listSchema: JsonSchema, kind: string, siblings: unknown[]): unknown {
  const alts = listSchema.items ? alternatives(root, listSchema.items) : [];
  const alt = alternativeFor(root, alts, kind) ?? alts[0];
  return alt ? newValue(root, alt, siblings) : {};
}

function newValue(root: JsonSchema, alt: JsonSchema, siblings: unknown[]): Json {
  const example = alt.examples?.find(isObject);
  const value: Json = example ? structuredClone(example) : {};
  for (const name of alt.required ?? []) {
    const prop = alt.properties?.[name];
    if (prop && value[name] === undefined) value[name] = starter(root, prop, name);
  }
  // An operation's `id` names the row it acts on, which may be any; the row it brings has an id of its own.
  const own = isObject(value.row) ? value.row : value;
  if (typeof own.id === 'string') {
    const ids = siblings.map((s) => (isObject(s) && isObject(s.row) ? s.row.id : isObject(s) ? s.id : undefined));
    own.id = freeId(own.id, new Set(ids.filter((id) => typeof id === 'string')));
  }
  return value;
}

/** One field's change when an object changes kind: the value it takes, or `undefined` to leave it out. */
export interface FieldChange {
  name: string;
  value: unknown;
}

/**
 * Changing an object's kind (a row's `kind`, an operation's `op`): the fields the new kind takes stay as they are
 * when they fit it, those it does not take are left out, and the ones it needs are added from its example. The
 * changes are returned, for the caller to write and announce; undo brings the old fields back.
 */
export function changeKind(
  root: JsonSchema,
  alts: JsonSchema[],
  value: Json,
  kind: string,
): { changes: FieldChange[]; removed: string[]; added: string[] } {
  const variantKey = variantKeyOf(root, alts);
  const alt = alternativeFor(root, alts, kind);
  if (!variantKey || !alt) return { changes: [], removed: [], added: [] };
  const changes: FieldChange[] = [{ name: variantKey, value: kind }];
  const removed: string[] = [];
  const added: string[] = [];
  const props = alt.properties ?? {};
  for (const [name, v] of Object.entries(value)) {
    if (name === variantKey || name === '$schema') continue;
    const prop = props[name];
    if (!prop) {
      changes.push({ name, value: undefined });
      removed.push(name);
    } else if (!fits(root, prop, v)) {
      const required = alt.required?.includes(name);
      changes.push({ name, value: required ? starter(root, prop, name) : undefined });
      (required ? added : removed).push(name);
    }
  }
  const example = alt.examples?.find(isObject) ?? {};
  for (const name of alt.required ?? []) {
    if (name === variantKey || value[name] !== undefined) continue;
    const prop = props[name];
    if (!prop) continue;
    changes.push({
      name,
      value: example[name] !== undefined ? structuredClone(example[name]) : starter(root, prop, name),
    });
    added.push(name);
  }
  return { changes, removed, added };
}

/** The schemas a path of the file may take: what `changeKind` and `newItem` are given. */
export function schemaAt(root: JsonSchema, value: unknown, path: Path): JsonSchema[] {
  let alts = alternatives(root, root);
  let here: unknown = value;
  for (const segment of path) {
    const object = isObject(here) ? here : undefined;
    const key = object ? variantKeyOf(root, alts) : undefined;
    const picked = key && object ? alts.filter((a) => constOf(root, a, key) === object[key]) : alts;
    const next: JsonSchema[] = [];
    for (const a of picked.length > 0 ? picked : alts) {
      const child = typeof segment === 'number' ? a.items : a.properties?.[segment];
      if (child) next.push(...alternatives(root, child));
    }
    alts = next;
    here = isObject(here) || Array.isArray(here) ? (here as Record<string | number, unknown>)[segment] : undefined;
  }
  return alts;
}

/** Every path the form shows a control (or a list, an item, an object) for, as problems write them. */
export function formKeys(root: FormObject): Set<string> {
  const keys = new Set<string>();
  const visitObject = (o: FormObject) => {
    keys.add(o.key);
    for (const f of o.fields) {
      keys.add(f.key);
      if (f.control === 'group') visitObject(f.body);
      if (f.control === 'list')
        for (const item of f.list.items) {
          keys.add(item.key);
          if (item.body) visitObject(item.body);
        }
    }
  };
  visitObject(root);
  return keys;
}

/**
 * Where each problem is shown: at the control for its path, else at the nearest control above it (an unknown
 * field's problem at its object, a list item's at its list, a problem with the whole file at the top).
 */
export function placeProblems<P extends { path: string }>(root: FormObject, problems: P[]): Map<string, P[]> {
  const keys = formKeys(root);
  const placed = new Map<string, P[]>();
  for (const problem of problems) {
    const path = parsePath(problem.path);
    let key = jsonPath(path);
    for (let n = path.length; n > 0 && !keys.has(key); n--) key = jsonPath(path.slice(0, n - 1));
    placed.set(key, [...(placed.get(key) ?? []), problem]);
  }
  return placed;
}

/** Whether `key` is `within` or a path inside it. */
export const isWithin = (key: string, within: string) =>
  within === '' || key === within || key.startsWith(`${within}.`) || key.startsWith(`${within}[`);
