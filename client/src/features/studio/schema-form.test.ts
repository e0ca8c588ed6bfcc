import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import brandsSchema from '../../../../shared/schemas/json/brands.schema.json' with { type: 'json' };
import overrideSchema from '../../../../shared/schemas/json/segment-override.schema.json' with { type: 'json' };
import pageSchema from '../../../../shared/schemas/json/segment-page.schema.json' with { type: 'json' };
import { EditHistory } from './edit-history.js';
import type { JsonSchema } from './schema-assist.js';
import {
  changeKind,
  describeForm,
  newItem,
  placeProblems,
  schemaAt,
  type FormField,
  type FormObject,
} from './schema-form.js';

const page = pageSchema as unknown as JsonSchema;
const override = overrideSchema as unknown as JsonSchema;
const brands = brandsSchema as unknown as JsonSchema;
const read = (file: string) => readFileSync(path.resolve('segments', file), 'utf8');
const explore = read('base/explore.json');
const rowSchemas = page.properties!.rows!.items!.oneOf!;

function rootOf(schema: JsonSchema, text: string): FormObject {
  const model = describeForm(schema, text);
  if (!model.ok) throw new Error(model.reason);
  return model.root;
}
const field = (o: FormObject, name: string) => o.fields.find((f) => f.name === name)!;
function rows(o: FormObject) {
  const f = field(o, 'rows');
  if (f.control !== 'list') throw new Error('rows is not a list');
  return f.list;
}
const shape = (f: FormField) => ({ name: f.name, control: f.control });

describe('the form a segment file gets from its schema', () => {
  it('lists a page’s title and rows, each row by its title and kind, with one kind to add per row schema', () => {
    const root = rootOf(page, explore);
    expect(root.fields.map(shape)).toEqual([
      { name: 'title', control: 'text' },
      { name: 'rows', control: 'list' },
    ]);
    const list = rows(root);
    expect(list.items.map((i) => [i.label, i.tag])).toEqual([
      ['Popular Local Performers', 'performers'],
      ['Local Events', 'events'],
      ['Local Performers This Week', 'performers'],
      ['Local Venues', 'venues'],
      ['National Trending Events', 'events'],
      ['Browse By Category', 'categories'],
    ]);
    expect(list.choices.map((c) => c.value)).toEqual(['performers', 'events', 'venues', 'categories', 'promos']);
    expect(list.maxItems).toBe(30);
  });

  it('gives each field the control its type asks for, with the schema’s bounds, values and description', () => {
    const list = rows(rootOf(page, explore));
    const performers = list.items[0]!.body!;
    // The kind first, then the schema's own order.
    expect(performers.fields.map(shape)).toEqual([
      { name: 'kind', control: 'select' },
      { name: 'id', control: 'text' },
      { name: 'title', control: 'text' },
      { name: 'empty', control: 'select' },
      { name: 'filter', control: 'group' },
      { name: 'sort', control: 'select' },
      { name: 'size', control: 'number' },
      { name: 'radiusMiles', control: 'number' },
    ]);
    const schema = rowSchemas[0]!.properties!;
    expect(field(performers, 'size')).toMatchObject({
      control: 'number',
      value: 4,
      integer: true,
      min: 1,
      max: 24,
      required: true,
      help: schema.size!.description,
    });
    expect(field(performers, 'radiusMiles')).toMatchObject({ min: 0, aboveMin: true, max: 3000, integer: false });
    expect(field(performers, 'sort')).toMatchObject({
      value: 'popular',
      defaultValue: 'popular',
      required: false,
      options: [
        { value: 'popular', label: 'popular' },
        { value: 'trending', label: 'trending' },
      ],
    });
    expect(field(performers, 'kind')).toMatchObject({ variant: true, value: 'performers' });
    const filter = field(performers, 'filter');
    if (filter.control !== 'group') throw new Error('filter is not a group');
    expect(filter.present).toBe(false);
    expect(filter.body.fields.map(shape)).toEqual([
      { name: 'categories', control: 'words' },
      { name: 'parents', control: 'choices' },
      { name: 'dateFilter', control: 'select' },
    ]);
    expect(field(filter.body, 'parents')).toMatchObject({
      options: ['SPORTS', 'CONCERTS', 'THEATRE', 'OTHER'].map((v) => ({ value: v, label: v })),
    });
    // Another kind, other fields: a venues row has no sort; an events row has tabs, a list of its own.
    expect(list.items[3]!.body!.fields.map((f) => f.name)).not.toContain('sort');
    const tabs = field(list.items[1]!.body!, 'tabs');
    expect(tabs.control === 'list' && tabs.list.items.map((t) => t.label)).toEqual([
      'All Events',
      'This Week',
      'This Month',
      'Next 30 Days',
      'Next 60 Days',
    ]);
    // A true/false field would be a checkbox; the brand registry has none, but a siteId is a whole number above 0.
    const brand = field(rootOf(brands, read('brands.json')), 'brands');
    expect(brand.control === 'list' && field(brand.list.items[0]!.body!, 'siteId')).toMatchObject({
      control: 'number',
      integer: true,
      aboveMin: true,
    });
  });

  it('shows an override’s operations, each with the row it brings, and names what it cannot show', () => {
    const text = read('base/explore~promos.json');
    const root = rootOf(override, text);
    expect(root.fields.map((f) => f.name)).toEqual(['extends', 'title', 'operations']);
    const ops = field(root, 'operations');
    if (ops.control !== 'list') throw new Error('operations is not a list');
    expect(ops.list.items.map((i) => i.label)).toEqual([
      'Promos (insertBefore popular-local-performers)',
      'Top Categories (insertAfter promos)',
      'remove browse-by-category',
    ]);
    const row = field(ops.list.items[0]!.body!, 'row');
    expect(row.control === 'group' && row.body.fields.map((f) => f.name)).toEqual([
      'kind',
      'id',
      'title',
      'empty',
      'size',
    ]);
    // A value of the wrong type, a field the schema does not know, a kind it does not know: said, not dropped.
    const odd = text
      .replace('"size": 6', '"size": "six", "colour": "red"')
      .replace('"kind": "categories"', '"kind": "category"');
    const oddOps = field(rootOf(override, odd), 'operations');
    if (oddOps.control !== 'list') throw new Error('operations is not a list');
    const promos = field(oddOps.list.items[0]!.body!, 'row');
    if (promos.control !== 'group') throw new Error('row is not a group');
    expect(field(promos.body, 'size')).toMatchObject({
      control: 'fixed',
      reason: expect.stringMatching(/"six".*JSON view/),
    });
    expect(promos.body.unknown).toEqual(['colour']);
    const top = field(oddOps.list.items[1]!.body!, 'row');
    if (top.control !== 'group') throw new Error('row is not a group');
    expect(top.body.fields.map((f) => f.name)).toEqual(['kind']);
    expect(field(top.body, 'kind')).toMatchObject({
      options: expect.arrayContaining([{ value: 'category', label: 'category (not a kind)' }]),
    });
    expect(top.body.note).toMatch(/Choose its kind/);
    expect(describeForm(page, '{ "title": ')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not valid JSON/),
    });
  });

  it('places each problem at the control for its path, else at the nearest one above it', () => {
    const root = rootOf(page, explore);
    const problem = (p: string) => ({ path: p, message: p });
    const placed = placeProblems(root, [
      problem('rows[3].size'),
      problem('rows[0].filter.categories[1]'),
      problem('rows[2].colour'),
      problem('(merged) rows[1].tabs[2].title'),
      problem(''),
    ]);
    expect([...placed.keys()]).toEqual([
      'rows[3].size',
      'rows[0].filter.categories',
      'rows[2]',
      'rows[1].tabs[2].title',
      '',
    ]);
  });

  it('starts a new row as the schema’s example of its kind, with an id the page does not have yet', () => {
    const value = JSON.parse(explore) as { rows: unknown[] };
    const [list] = schemaAt(page, value, ['rows']);
    expect(newItem(page, list!, 'venues', value.rows)).toEqual({
      id: 'local-venues-2',
      kind: 'venues',
      title: 'Local Venues',
      size: 8,
      radiusMiles: 50,
      empty: 'hide',
    });
    expect(newItem(page, list!, 'promos', value.rows)).toMatchObject({ id: 'promos', kind: 'promos', size: 6 });
    const ops = JSON.parse(read('base/explore~promos.json')) as { operations: unknown[] };
    const [opList] = schemaAt(override, ops, ['operations']);
    // The operation's id names a row of the page it changes; the row it brings gets an id of its own.
    expect(newItem(override, opList!, 'insertAfter', ops.operations)).toMatchObject({
      op: 'insertAfter',
      id: 'promos',
      row: { id: 'promos-2', kind: 'promos' },
    });
  });

  it('changes a row’s kind, keeping what the new kind takes and saying what it leaves out and adds', () => {
    const value = JSON.parse(explore) as { rows: Record<string, unknown>[] };
    const alts = schemaAt(page, value, ['rows', 2]);
    expect(changeKind(page, alts, value.rows[2]!, 'venues')).toEqual({
      changes: [
        { name: 'kind', value: 'venues' },
        { name: 'filter', value: undefined },
        { name: 'sort', value: undefined },
      ],
      removed: ['filter', 'sort'],
      added: [],
    });
    const toCategories = changeKind(page, alts, value.rows[2]!, 'categories');
    expect(toCategories.removed).toEqual(['filter', 'sort', 'size']);
    expect(toCategories.added).toEqual(['tiles']);
  });
});

describe('undo and redo over the form’s edits', () => {
  it('steps back and forth, joins keystrokes in one field, and starts again when the text changed elsewhere', () => {
    const h = new EditHistory();
    h.record('a.json', 'A', 'B', 'first');
    h.record('a.json', 'B', 'BC', 'typing', 'rows[0].title');
    h.record('a.json', 'BC', 'BCD', 'typing', 'rows[0].title');
    expect(h.undo('a.json', 'BCD')).toEqual({ text: 'B', label: 'typing' });
    expect(h.undo('a.json', 'B')).toEqual({ text: 'A', label: 'first' });
    expect(h.canUndo('a.json', 'A')).toBe(false);
    expect(h.redo('a.json', 'A')).toEqual({ text: 'B', label: 'first' });
    expect(h.redo('a.json', 'B')).toEqual({ text: 'BCD', label: 'typing' });
    // Typed in the JSON view meanwhile: the form's steps no longer apply to this text.
    expect(h.canUndo('a.json', 'BCD!')).toBe(false);
    expect(h.undo('a.json', 'BCD!')).toBeNull();
    h.record('a.json', 'BCD!', 'X', 'again');
    expect(h.undo('a.json', 'X')).toEqual({ text: 'BCD!', label: 'again' });
    expect(h.canUndo('a.json', 'BCD!')).toBe(false);
    // A new edit after an undo drops what could be redone; another file has its own steps.
    h.record('a.json', 'BCD!', 'Y', 'other');
    expect(h.canRedo('a.json', 'Y')).toBe(false);
    expect(h.canUndo('b.json', 'Y')).toBe(false);
  });
});
