import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { segmentJsonSchemas } from './json-schema.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where a property has no `description` or no `examples`, as JSON pointers; a `$ref` counts its target's. */
function undocumentedProperties(root: Json): string[] {
  const resolve = (node: Json): Json => {
    const ref = node.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), root);
    return isObject(target) ? { ...target, ...node } : node;
  };
  const missing: string[] = [];
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
    if (!isObject(node)) return;
    if (isObject(node.properties)) {
      for (const [name, property] of Object.entries(node.properties)) {
        const schema = isObject(property) ? resolve(property) : {};
        const lacks = [
          typeof schema.description === 'string' && schema.description ? '' : 'description',
          Array.isArray(schema.examples) && schema.examples.length ? '' : 'examples',
        ].filter(Boolean);
        if (lacks.length) missing.push(`${at}/properties/${name} (no ${lacks.join(', no ')})`);
      }
    }
    // `default`, `examples` and `const` hold data, not schemas.
    for (const [key, value] of Object.entries(node))
      if (!['default', 'examples', 'const', 'enum'].includes(key)) walk(value, `${at}/${key}`);
  };
  walk(root, '#');
  return missing;
}

describe('the generated JSON Schemas', () => {
  it('give every property of every file a description and examples, for hover help in the editor', () => {
    const schemas = segmentJsonSchemas();
    expect(Object.keys(schemas).sort()).toEqual([
      'brands.schema.json',
      'flags.schema.json',
      'segment-override.schema.json',
      'segment-page.schema.json',
    ]);
    for (const [file, schema] of Object.entries(schemas)) {
      expect(undocumentedProperties(schema as Json), file).toEqual([]);
    }
  });

  it('name a property that lacks either, including one in $defs, an anyOf branch or behind a $ref', () => {
    const documented = z.string().meta({ description: 'documented', examples: ['a'] });
    const bare = z
      .object({ inner: z.number().describe('no examples') })
      .meta({ id: 'Bare', description: 'shared', examples: [{}] });
    const schema = z.toJSONSchema(
      z.object({
        ok: documented,
        either: z.union([z.object({ plain: z.string() }), z.boolean()]).meta({ description: 'x', examples: [true] }),
        ref: bare,
      }),
    );
    expect(undocumentedProperties(schema as Json)).toEqual([
      '#/properties/either/anyOf/0/properties/plain (no description, no examples)',
      '#/$defs/Bare/properties/inner (no examples)',
    ]);
  });
});
