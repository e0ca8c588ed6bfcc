/** How each field of a collection's zod schema is stored: which kind of column, and a list's element parts. */

export type Scalar = 'number' | 'string';
/** How a field is stored: lists say what their elements are, and the scalar parts an element is made of. */
export type ColumnSpec =
  | { kind: 'number' | 'string' | 'point' | 'value' }
  | { kind: 'list'; element: 'number' | 'string' | 'point' | 'record'; fields: string[]; parts: Scalar[] };

/** How a zod field schema is stored (a nullable number or string keeps its kind; null is NaN or -1). */
export function specOf(schema: ZodSchema): ColumnSpec {
  const def = unwrap(schema);
  if (def.type === 'number' || def.type === 'string') return { kind: def.type };
  if (def.type === 'enum') return { kind: 'string' };
  if (isPoint(def)) return { kind: 'point' };
  if (def.type === 'array') {
    const element = unwrap(def.element!);
    if (element.type === 'number' || element.type === 'string' || element.type === 'enum') {
      const scalar = element.type === 'number' ? 'number' : 'string';
      return { kind: 'list', element: scalar, fields: [], parts: [scalar] };
    }
    if (isPoint(element)) return { kind: 'list', element: 'point', fields: [], parts: ['number', 'number'] };
    if (element.type === 'object') {
      const fields = Object.keys(element.shape!);
      const parts = fields.map((f) => specOf(element.shape![f]!).kind);
      if (parts.every((k) => k === 'number' || k === 'string'))
        return { kind: 'list', element: 'record', fields, parts: parts as Scalar[] };
    }
  }
  return { kind: 'value' };
}

interface ZodSchema {
  _zod: { def: ZodDef };
}
interface ZodDef {
  type: string;
  innerType?: ZodSchema;
  items?: ZodSchema[];
  element?: ZodSchema;
  shape?: Record<string, ZodSchema>;
}

function unwrap(schema: ZodSchema): ZodDef {
  let def = schema._zod.def;
  while (def.type === 'nullable' || def.type === 'optional' || def.type === 'default') def = def.innerType!._zod.def;
  return def;
}

function isPoint(def: ZodDef): boolean {
  return def.type === 'tuple' && def.items?.length === 2 && def.items.every((i) => unwrap(i).type === 'number');
}
