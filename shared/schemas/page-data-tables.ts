import { entitySlug } from '../rules/slug.js';

/*
 * RULES 13.14: the page data's lists of objects written as tables. An answer's cards, rows, tabs and listings are
 * lists of objects with the same keys; as JSON each object names every key again. A table names them once:
 *
 *   ["~t", keys, row…]           each row the object's values in the keys' order; a key the object lacks is "~"
 *                                 (trailing ones left off)
 *   ["~a", keys, prefix, row…]   the same, every object's `url` being `prefix` + its entity slug (`entitySlug` of
 *                                 its `name` and `id`, RULES 2.2): the rows leave that column out. Only for names
 *                                 in Latin-1 (and the quotes the slug drops): the browser derives the slug again,
 *                                 and a letter newer than its Unicode tables would decompose otherwise there
 *
 * A string the data holds that starts with "~" is written with one more "~", so that no value can pass for a mark.
 * `unpackTables(packTables(v))` writes the same JSON as `v`: the same keys in the same order, the same values.
 */

const TABLE = '~t';
const ADDRESSED = '~a';
const MISSING = '~';
const MARK = '~';
/** The key a table of entities may derive: their own page's address. */
const ADDRESS_KEY = 'url';

type Json = unknown;
type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What JSON writes for a value with a `toJSON` (a date, say): that method's answer, under the value's key. JSON asks
 * only objects (and functions and bigints) for one, never a string or a number.
 */
const jsonOf = (value: unknown, key: string): unknown =>
  ((typeof value === 'object' && value !== null) || typeof value === 'function' || typeof value === 'bigint') &&
  typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ? (value as { toJSON: (key: string) => unknown }).toJSON(key)
    : value;

/**
 * Names whose slug every browser derives as the server does: Latin-1 and the two quotes the slug drops (nothing from
 * U+0100 on but those), whose decomposition is as old as Unicode 1.1.
 */
const STABLE_NAME = /^[^\u0100-\u2017\u201a-\uffff]*$/;

/** Whether JSON writes an object's key with this value: not when it is undefined, a function or a symbol. */
const written = (value: unknown) => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';

/** An object's members as JSON writes them, in its key order: each value after its `toJSON`, none JSON leaves out. */
interface Members {
  keys: string[];
  values: unknown[];
}

function members(object: JsonObject): Members {
  const found: Members = { keys: [], values: [] };
  for (const key of Object.keys(object)) {
    const value = jsonOf(object[key], key);
    if (!written(value)) continue;
    found.keys.push(key);
    found.values.push(value);
  }
  return found;
}

/** A member's value, or undefined when the object has none under `key`. */
function memberOf(object: Members, key: string): unknown {
  const i = object.keys.indexOf(key);
  return i < 0 ? undefined : object.values[i];
}

/** Sets an own key, `__proto__` included (which plain assignment would take for the object's prototype). */
function setKey(object: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/**
 * The keys of a list of objects in one order every object's own keys follow, or null when two objects order their
 * keys differently (the list is then written as it is, so that no object comes back with its keys reordered).
 */
function tableKeys(keyLists: readonly string[][]): string[] | null {
  const keys: string[] = [];
  for (const own of keyLists) {
    let at = 0;
    for (const key of own) {
      const found = keys.indexOf(key);
      if (found === -1) keys.splice(at++, 0, key);
      else if (found < at) return null;
      else at = found + 1;
    }
  }
  return keys;
}

/** The prefix every object's `url` shares before its entity slug, or null when one's address is not of that form. */
function addressPrefix(objects: readonly Members[]): string | null {
  let prefix: string | null = null;
  for (const object of objects) {
    const [url, name, id] = [memberOf(object, ADDRESS_KEY), memberOf(object, 'name'), memberOf(object, 'id')];
    if (typeof url !== 'string' || typeof name !== 'string' || !STABLE_NAME.test(name)) return null;
    // JSON writes an id that is not a finite number as null, which would make another slug.
    if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) return null;
    const slug = entitySlug(name, id);
    if (!url.endsWith(slug)) return null;
    const own = url.slice(0, url.length - slug.length);
    if (prefix !== null && own !== prefix) return null;
    prefix = own;
  }
  return prefix;
}

/**
 * Whether the table writes less than the list: every object names its keys (`"key":`, the key's length and 3), the
 * table names them once (the same each, and 7 for `"~t",[`…`],`) and marks what an object lacks before its last
 * value (`"~",`, 4 each). Brackets and the commas between values are the same either way.
 */
function worthATable(keyLists: readonly string[][], keys: readonly string[]): boolean {
  const named = (list: readonly string[]) => list.reduce((sum, key) => sum + key.length + 3, 0);
  let saved = -named(keys) - 7;
  for (const own of keyLists) {
    const last = own.length === 0 ? -1 : keys.indexOf(own[own.length - 1]!);
    saved += named(own) - (last + 1 - own.length) * 4;
  }
  return saved > 0;
}

function packTable(objects: readonly JsonObject[]): Json[] | null {
  const own = objects.map(members);
  const keyLists = own.map((object) => object.keys);
  const keys = tableKeys(keyLists);
  if (!keys || !worthATable(keyLists, keys)) return null;
  const prefix = keys.includes(ADDRESS_KEY) ? addressPrefix(own) : null;
  const columns = prefix === null ? keys : keys.filter((key) => key !== ADDRESS_KEY);
  const rows = own.map((object) => {
    const row = columns.map((key) => {
      const i = object.keys.indexOf(key);
      return i < 0 ? MISSING : pack(object.values[i]);
    });
    while (row.length > 0 && row[row.length - 1] === MISSING) row.pop();
    return row;
  });
  return prefix === null ? [TABLE, keys, ...rows] : [ADDRESSED, keys, prefix, ...rows];
}

/** A value JSON writes as it is (its `toJSON`, if any, already asked), packed. */
function pack(value: Json): Json {
  if (typeof value === 'string') return value.startsWith(MARK) ? MARK + value : value;
  if (Array.isArray(value)) {
    // Each item as JSON writes it; a hole is undefined, which JSON writes as null.
    const items = Array.from(value, (item, i) => jsonOf(item, String(i)));
    if (items.length >= 2 && items.every(isObject)) {
      const table = packTable(items);
      if (table) return table;
    }
    return items.map(pack);
  }
  if (isObject(value)) {
    const packed: JsonObject = {};
    const { keys, values } = members(value);
    for (let i = 0; i < keys.length; i++) setKey(packed, keys[i]!, pack(values[i]));
    return packed;
  }
  return value;
}

/** The value with its lists of objects written as tables and its strings escaped (see above). */
export function packTables(value: Json): Json {
  return pack(jsonOf(value, ''));
}

function unpackTable(table: readonly Json[], addressed: boolean): JsonObject[] {
  const keys = table[1];
  const prefix = addressed ? table[2] : undefined;
  if (
    !Array.isArray(keys) ||
    !keys.every((key) => typeof key === 'string') ||
    (addressed && typeof prefix !== 'string')
  )
    throw new Error('a table without its keys');
  const columns = addressed ? keys.filter((key) => key !== ADDRESS_KEY) : keys;
  return table.slice(addressed ? 3 : 2).map((row) => {
    if (!Array.isArray(row)) throw new Error('a table row that is not a list');
    const values = new Map<string, Json>();
    columns.forEach((key: string, i) => {
      if (i < row.length && row[i] !== MISSING) values.set(key, unpackTables(row[i]));
    });
    const object: JsonObject = {};
    for (const key of keys as string[]) {
      if (addressed && key === ADDRESS_KEY)
        setKey(object, key, prefix + entitySlug(values.get('name') as string, values.get('id') as number | string));
      else if (values.has(key)) setKey(object, key, values.get(key));
    }
    return object;
  });
}

/** The value `packTables` was given, from what it wrote (parsed). Throws on a mark where none can be. */
export function unpackTables(value: Json): Json {
  if (typeof value === 'string') {
    if (!value.startsWith(MARK)) return value;
    if (value.startsWith(MARK + MARK)) return value.slice(1);
    throw new Error(`a mark out of place: ${value}`);
  }
  if (Array.isArray(value)) {
    if (value[0] === TABLE) return unpackTable(value, false);
    if (value[0] === ADDRESSED) return unpackTable(value, true);
    return value.map(unpackTables);
  }
  if (isObject(value)) {
    const unpacked: JsonObject = {};
    for (const key of Object.keys(value)) setKey(unpacked, key, unpackTables(value[key]));
    return unpacked;
  }
  return value;
}
