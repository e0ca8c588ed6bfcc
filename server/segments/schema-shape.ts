import type { z } from 'zod';

/**
 * What a zod schema expects at a JSON path, read from its definition: the fields of an object, the option of a
 * union a value picks, and a value's description for "needs …" and "must be …".
 */

export type Schema = z.ZodType;
type Def = { type: string; [key: string]: unknown };
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(schema: Schema): Schema {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional'].includes(def.type))
      s = def.innerType as Schema;
    else if (def.type === 'pipe') s = def.in as Schema;
    else return s;
  }
}

/** The schema of the value at `at`, choosing each union's option by the value found there. */
export function schemaAt(root: Schema, raw: unknown, at: readonly (string | number)[]): Schema | undefined {
  let s: Schema = root;
  let value = raw;
  let i = 0;
  for (;;) {
    s = unwrap(s);
    const def = defOf(s);
    if (def.type === 'union') {
      const disc = def.discriminator as string | undefined;
      const pick = disc
        ? (def.options as Schema[]).find((o) =>
            literalValues(unwrap(o), disc).includes((value as Record<string, unknown> | null)?.[disc]),
          )
        : undefined;
      if (!pick) return i === at.length ? s : undefined;
      s = pick;
      continue;
    }
    if (i === at.length) return s;
    const part = at[i++]!;
    value = (value as Record<string | number, unknown> | null | undefined)?.[part];
    const shape = def.shape as Record<string, Schema>;
    const next: Schema | undefined =
      def.type === 'object'
        ? Object.hasOwn(shape, part)
          ? shape[part]
          : undefined
        : def.type === 'array'
          ? (def.element as Schema)
          : undefined;
    if (!next) return undefined;
    s = next;
  }
}

function literalValues(object: Schema, key: string): unknown[] {
  const def = defOf(object);
  const shape = def.shape as Record<string, Schema>;
  const field = def.type === 'object' && Object.hasOwn(shape, key) ? shape[key] : undefined;
  return field ? ((defOf(unwrap(field)).values as unknown[] | undefined) ?? []) : [];
}

export function fieldsOf(schema: Schema | undefined): string[] {
  if (!schema) return [];
  const def = defOf(unwrap(schema));
  return def.type === 'object' ? Object.keys(def.shape as object) : [];
}

/** What a value of this schema looks like, for "needs …" and "must be …". */
export function expectation(schema: Schema | undefined): string {
  if (!schema) return 'a value';
  const s = unwrap(schema) as Schema & {
    minValue?: number | null;
    maxValue?: number | null;
    isInt?: boolean;
    minLength?: number | null;
    maxLength?: number | null;
  };
  const def = defOf(s);
  switch (def.type) {
    case 'number': {
      const what = s.isInt ? 'a whole number' : 'a number';
      const low =
        s.minValue !== null &&
        s.minValue !== undefined &&
        Number.isFinite(s.minValue) &&
        Math.abs(s.minValue) < Number.MAX_SAFE_INTEGER
          ? s.minValue
          : undefined;
      const high =
        s.maxValue !== null &&
        s.maxValue !== undefined &&
        Number.isFinite(s.maxValue) &&
        Math.abs(s.maxValue) < Number.MAX_SAFE_INTEGER
          ? s.maxValue
          : undefined;
      if (low !== undefined && high !== undefined) return `${what} from ${low} to ${high}`;
      if (high !== undefined) return `${what} up to ${high}`;
      if (low !== undefined) return `${what} of at least ${low}`;
      return what;
    }
    case 'string':
      return s.maxLength ? `text of up to ${s.maxLength} characters` : 'text';
    case 'boolean':
      return 'true or false';
    case 'array':
      return 'a list [ … ]';
    case 'object':
      return `an object { … } with ${Object.keys(def.shape as object).join(', ')}`;
    case 'enum':
      return `one of ${Object.values(def.entries as object).join(', ')}`;
    case 'literal':
      return `"${String((def.values as unknown[])[0])}"`;
    case 'union': {
      const disc = def.discriminator as string | undefined;
      if (!disc) return 'a value';
      const kinds = (def.options as Schema[]).flatMap((o) => literalValues(unwrap(o), disc));
      return `an object { … } with "${disc}": ${kinds.join(', ')}`;
    }
    default:
      return 'a value';
  }
}
