import { entitySlug } from '../rules/slug.js';

/*
 * RULES 13.14: the page data's lists of objects written as tables. An answer's cards, rows, tabs and listings are
 * lists of objects with the same keys; as JSON each object names every key again. A table names them once:
 *
 *   ["~t", keys, row…]           each row the object's values in the keys' order; a key the object lacks is "~"
 *                                 (trailing ones left off)
 *   ["~a", keys, prefix, row…]   the same, every object's `url` being `prefix` + its entity slug (`entitySlug` of
 *                                 its `name` and `id`, RULES 2.2): the rows leave that column out
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
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as { toJSON?: unknown }).toJSON !== 'function';

/** Whether JSON writes an object's key with this value: not when it is undefined, a function or a symbol. */
const written = (value: unknown) => value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';

/** The keys JSON would write for an object. */
function writtenKeys(object: JsonObject): string[] {
  const keys: string[] = [];
  for (const key of Object.keys(object)) if (written(object[key])) keys.push(key);
  return keys;
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
function addressPrefix(objects: readonly JsonObject[]): string | null {
  let prefix: string | null = null;
  for (const { url, name, id } of objects) {
    if (typeof url !== 'string' || typeof name !== 'string' || !(typeof id === 'number' || typeof id === 'string'))
      return null;
    const slug = entitySlug(name, id);
    if (!url.endsWith(slug)) return null;
    const own = url.slice(0, url.length - slug.length);
    if (prefix !== null && own !== prefix) return null;
    prefix = own;
  }
  return prefix;
}

/** Whether naming the keys once (and marking what an object lacks) writes less than naming them in every object. */
function worthATable(written: readonly string[][], keys: readonly string[]): boolean {
  let saved = -keys.reduce((sum, key) => sum + key.length + 3, 8);
  for (const own of written)
    saved += own.reduce((sum, key) => sum + key.length + 4, 0) - (keys.length - own.length) * 4;
  return saved > 0;
}

function packTable(objects: readonly JsonObject[]): Json[] | null {
  const own = objects.map(writtenKeys);
  const keys = tableKeys(own);
  if (!keys || !worthATable(own, keys)) return null;
  const prefix = keys.includes(ADDRESS_KEY) ? addressPrefix(objects) : null;
  const columns = prefix === null ? keys : keys.filter((key) => key !== ADDRESS_KEY);
  const rows = objects.map((object) => {
    const row = columns.map((key) =>
      Object.hasOwn(object, key) && written(object[key]) ? packTables(object[key]) : MISSING,
    );
    while (row.length > 0 && row[row.length - 1] === MISSING) row.pop();
    return row;
  });
  return prefix === null ? [TABLE, keys, ...rows] : [ADDRESSED, keys, prefix, ...rows];
}

/** The value with its lists of objects written as tables and its strings escaped (see above). */
export function packTables(value: Json): Json {
  if (typeof value === 'string') return value.startsWith(MARK) ? MARK + value : value;
  if (Array.isArray(value)) {
    if (value.length >= 2 && value.every(isObject)) {
      const table = packTable(value);
      if (table) return table;
    }
    return value.map(packTables);
  }
  if (isObject(value)) {
    const packed: JsonObject = {};
    for (const key of Object.keys(value)) if (written(value[key])) setKey(packed, key, packTables(value[key]));
    return packed;
  }
  return value;
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
