// @vitest-environment happy-dom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import overrideSchema from '../../../../shared/schemas/json/segment-override.schema.json' with { type: 'json' };
import pageSchema from '../../../../shared/schemas/json/segment-page.schema.json' with { type: 'json' };
import type { SegmentProblemView } from '../../../../shared/schemas/studio.js';
import { EditHistory } from './edit-history.js';
import { CHECK_DELAY_MS, FormEditor, type JsonPlace } from './form-editor.js';
import { insertItem, moveItem, removeItem } from './json-text-edits.js';
import type { JsonSchema } from './schema-assist.js';

const explore = readFileSync(path.resolve('segments/base/explore.json'), 'utf8');
const promos = readFileSync(path.resolve('segments/base/explore~promos.json'), 'utf8');
const page = pageSchema as unknown as JsonSchema;

/** The form as the drafts panel holds it: the draft's text in state, changed by the form and read back. */
function renderForm(
  initial: string,
  {
    file = 'base/explore.json',
    schema = page,
    check = () => Promise.resolve([] as SegmentProblemView[]),
    onShowInJson = () => {},
  }: {
    file?: string;
    schema?: JsonSchema;
    check?: (text: string) => Promise<SegmentProblemView[]>;
    onShowInJson?: (place: JsonPlace) => void;
  } = {},
) {
  const draft = { text: initial };
  function Harness() {
    const [text, setText] = useState(initial);
    const [history] = useState(() => new EditHistory());
    draft.text = text;
    return (
      <FormEditor
        path={file}
        text={text}
        schema={schema}
        history={history}
        onChange={setText}
        check={check}
        problems={[]}
        onShowInJson={onShowInJson}
      />
    );
  }
  render(<Harness />);
  return draft;
}

const rowIds = (text: string) => (JSON.parse(text) as { rows: { id: string }[] }).rows.map((r) => r.id);
/** The list item of a row, by its title. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const rowItem = (title: string) => screen.getByRole('listitem', { name: new RegExp(`^\\d+\\. ${escaped(title)}`) });
const openRow = (title: string) => {
  fireEvent.click(within(rowItem(title)).getByRole('button', { name: `Edit “${title}”` }));
  return within(screen.getByRole('group', { name: new RegExp(`^\\d+\\. ${escaped(title)}`) }));
};
const description = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the form editor', () => {
  it('draws each field of a row with the control its schema asks for, its bounds and its description as help', () => {
    renderForm(explore);
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveProperty('value', 'Explore');
    const row = openRow('Popular Local Performers');
    const kind = row.getByRole('combobox', { name: 'Kind' });
    expect([...kind.querySelectorAll('option')].map((o) => o.value)).toEqual([
      'performers',
      'events',
      'venues',
      'categories',
      'promos',
    ]);
    expect(description(kind)).toMatch(/^performers: a row of performer cards/);
    const size = row.getByRole('spinbutton', { name: 'Size' });
    expect([size.getAttribute('min'), size.getAttribute('max'), size.getAttribute('step')]).toEqual(['1', '24', '1']);
    expect(description(size)).toBe(
      'How many performer cards the row shows, 1 to 24. RULES 11.2: 4 on home rows, 9 on category pages.',
    );
    const sort = row.getByRole('combobox', { name: 'Sort (optional)' });
    expect([...sort.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Default (popular)',
      'popular',
      'trending',
    ]);
    const filter = within(row.getByRole('group', { name: 'Filter (optional)' }));
    expect(filter.getAllByRole('checkbox').map((c) => c.parentElement!.textContent!.trim())).toEqual([
      'SPORTS',
      'CONCERTS',
      'THEATRE',
      'OTHER',
    ]);
    expect(filter.getByRole('combobox', { name: 'Date filter (optional)' })).toHaveProperty('value', '');
    expect(filter.getByRole('textbox', { name: 'Categories, separated by commas (optional)' })).toBeTruthy();
    // A venues row is drawn from the venues schema: no sort.
    expect(openRow('Local Venues').queryByRole('combobox', { name: /^Sort/ })).toBeNull();
  });

  it('writes an edited field where it is, and nothing else', () => {
    const draft = renderForm(explore);
    const row = openRow('Local Venues');
    fireEvent.change(row.getByRole('textbox', { name: 'Title' }), { target: { value: 'Venues Near You' } });
    expect(draft.text).toBe(explore.replace('"title": "Local Venues"', '"title": "Venues Near You"'));
    fireEvent.change(row.getByRole('spinbutton', { name: 'Size' }), { target: { value: '6' } });
    fireEvent.change(row.getByRole('combobox', { name: 'Empty (optional)' }), { target: { value: 'show' } });
    expect(draft.text).toBe(
      explore.replace(
        '"title": "Local Venues",\n      "size": 8,\n      "radiusMiles": 50,\n      "empty": "hide"',
        '"title": "Venues Near You",\n      "size": 6,\n      "radiusMiles": 50,\n      "empty": "show"',
      ),
    );
    // A filter the row did not have is added, on one line, with the field chosen.
    const performers = openRow('Popular Local Performers');
    fireEvent.click(performers.getByRole('checkbox', { name: 'CONCERTS' }));
    expect(draft.text).toContain('"empty": "widen",\n      "filter": { "parents": ["CONCERTS"] }\n    },');
    // Typing a new id keeps the row open and the same box in hand, key after key.
    const id = row.getByRole('textbox', { name: 'Id' });
    fireEvent.change(id, { target: { value: 'near-venues' } });
    expect(id.isConnected).toBe(true);
    expect(JSON.parse(draft.text).rows[3].id).toBe('near-venues');
    // Emptying an optional field leaves it out.
    fireEvent.change(performers.getByRole('spinbutton', { name: 'Radius miles (optional)' }), {
      target: { value: '' },
    });
    expect(JSON.parse(draft.text).rows[0]).not.toHaveProperty('radiusMiles');
  });

  it('adds a row of the kind chosen, removes one, and moves one by keyboard and by drag and drop', () => {
    const draft = renderForm(explore);
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind of the new row' }), { target: { value: 'promos' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a promos row' }));
    const added = insertItem(explore, ['rows'], 6, {
      id: 'promos',
      kind: 'promos',
      title: 'Promos',
      size: 6,
      empty: 'hide',
    });
    expect(draft.text).toBe(added);
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Reorder “Promos”, row 7 of 7');

    fireEvent.click(within(rowItem('Local Events')).getByRole('button', { name: 'Remove “Local Events”' }));
    const removed = removeItem(added, ['rows'], 1);
    expect(draft.text).toBe(removed);
    expect(screen.getByRole('status').textContent).toBe('Removed the row “Local Events”. Undo brings it back.');

    // The keyboard alone: Alt+Arrow Up on the row's handle; the focus stays with the row.
    const handle = screen.getByRole('button', { name: /^Reorder “Local Venues”/ });
    handle.focus();
    fireEvent.keyDown(handle, { key: 'ArrowUp', altKey: true });
    expect(rowIds(draft.text)).toEqual([
      'popular-local-performers',
      'local-venues',
      'local-performers-this-week',
      'national-trending-events',
      'browse-by-category',
      'promos',
    ]);
    expect(draft.text).toBe(moveItem(removed, ['rows'], 2, 1));
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Reorder “Local Venues”, row 2 of 6');
    expect(screen.getByRole('status').textContent).toBe('Moved “Local Venues” up: row 2 of 6.');
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown', altKey: true });
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown', altKey: true });
    expect(rowIds(draft.text).indexOf('local-venues')).toBe(3);
    // An arrow without Alt moves nothing; the Down button does.
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
    expect(rowIds(draft.text).indexOf('local-venues')).toBe(3);
    // An open row stays open where it goes; the one that took its place stays closed.
    fireEvent.click(within(rowItem('Local Venues')).getByRole('button', { name: 'Edit “Local Venues”' }));
    fireEvent.click(screen.getByRole('button', { name: 'Move down “Local Venues”' }));
    expect(rowIds(draft.text).indexOf('local-venues')).toBe(4);
    expect(screen.getByRole('group', { name: /^5\. Local Venues/ })).toBeTruthy();
    expect(screen.queryByRole('group', { name: /^4\. Browse By Category/ })).toBeNull();
    expect(screen.getAllByRole('group', { name: /^\d+\. / })).toHaveLength(1);

    // Drag the first row's handle onto the third row.
    const before = draft.text;
    const data = { effectAllowed: '', dropEffect: '', setData: vi.fn() };
    fireEvent.dragStart(screen.getByRole('button', { name: /^Reorder “Popular Local Performers”/ }), {
      dataTransfer: data,
    });
    fireEvent.dragOver(rowItem('National Trending Events'), { dataTransfer: data });
    fireEvent.drop(rowItem('National Trending Events'), { dataTransfer: data });
    expect(draft.text).toBe(moveItem(before, ['rows'], 0, 2));
  });

  it('undoes and redoes the form’s edits, with the buttons and with the keys', () => {
    const draft = renderForm(explore);
    const undo = screen.getByRole('button', { name: 'Undo' });
    expect(undo).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Move up “Local Venues”' }));
    const moved = draft.text;
    const title = openRow('Browse By Category').getByRole('textbox', { name: 'Title' });
    // Typing is one step, however many keys.
    for (const value of ['Browse By Categor', 'Browse By Catego', 'Browse By Categ'])
      fireEvent.change(title, { target: { value } });
    expect(draft.text).toBe(moved.replace('"Browse By Category"', '"Browse By Categ"'));
    fireEvent.click(undo);
    expect(draft.text).toBe(moved);
    expect(screen.getByRole('status').textContent).toBe('Undone: typing in the title of “Browse By Category”.');
    fireEvent.keyDown(title, { key: 'z', ctrlKey: true });
    expect(draft.text).toBe(explore);
    expect(screen.getByRole('status').textContent).toBe('Undone: moving “Local Venues” up.');
    expect(undo).toHaveProperty('disabled', true);
    fireEvent.keyDown(title, { key: 'Z', ctrlKey: true, shiftKey: true });
    expect(draft.text).toBe(moved);
    fireEvent.keyDown(title, { key: 'y', ctrlKey: true });
    expect(draft.text).toBe(moved.replace('"Browse By Category"', '"Browse By Categ"'));
    fireEvent.keyDown(title, { key: 'z', metaKey: true });
    expect(draft.text).toBe(moved);
    const redo = screen.getByRole('button', { name: 'Redo' });
    redo.focus();
    fireEvent.click(redo);
    expect(redo).toHaveProperty('disabled', true);
    // The button that can no longer be pressed hands the focus on.
    expect(document.activeElement).toBe(undo);
  });

  it('shows the server’s problem on its field, and opens the row that has it', async () => {
    vi.useFakeTimers();
    const check = vi.fn((text: string) =>
      Promise.resolve(
        text.includes('"size": 30')
          ? [
              {
                file: 'base/explore.json',
                path: 'rows[3].size',
                line: 44,
                column: 15,
                value: '30',
                message: 'size 30 is more than 24, the most allowed',
              },
            ]
          : [],
      ),
    );
    const draft = renderForm(explore, { check });
    fireEvent.click(within(rowItem('Local Venues')).getByRole('button', { name: 'Edit “Local Venues”' }));
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Size' }), { target: { value: '30' } });
    fireEvent.click(within(rowItem('Local Venues')).getByRole('button', { name: 'Close “Local Venues”' }));
    await act(() => vi.advanceTimersByTimeAsync(CHECK_DELAY_MS));
    expect(check).toHaveBeenLastCalledWith(draft.text);
    expect(rowItem('Local Venues').textContent).toContain('1 problem');
    // Closed by hand it stays closed; opened, the field says what is wrong with it.
    expect(screen.queryByRole('spinbutton', { name: 'Size' })).toBeNull();
    fireEvent.click(within(rowItem('Local Venues')).getByRole('button', { name: 'Edit “Local Venues”' }));
    const size = screen.getByRole('spinbutton', { name: 'Size' });
    expect(size.getAttribute('aria-invalid')).toBe('true');
    expect(description(size)).toMatch(
      /^size 30 is more than 24, the most allowed \(line 44, column 15\) \| How many venue/,
    );
    // Not on the other fields.
    expect(screen.getByRole('spinbutton', { name: 'Radius miles (optional)' }).getAttribute('aria-invalid')).toBeNull();
    // Fixed: the problem goes.
    fireEvent.change(size, { target: { value: '8' } });
    await act(() => vi.advanceTimersByTimeAsync(CHECK_DELAY_MS));
    expect(screen.getByRole('spinbutton', { name: 'Size' }).getAttribute('aria-invalid')).toBeNull();
    // A row that has a problem when the form opens is open already.
    cleanup();
    renderForm(explore.replace('"size": 5,\n      "empty": "hide"', '"size": 50,\n      "empty": "hide"'), {
      check: () =>
        Promise.resolve([
          {
            file: 'base/explore.json',
            path: 'rows[4].size',
            line: 54,
            column: 15,
            message: 'size 50 is more than 24, the most allowed',
          },
        ]),
    });
    await act(() => vi.advanceTimersByTimeAsync(CHECK_DELAY_MS));
    const trending = within(screen.getByRole('group', { name: /^5\. National Trending Events/ }));
    expect(trending.getByRole('spinbutton', { name: 'Size' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('opens the row of a problem chosen in the problem list and puts the focus on its field', async () => {
    const problem = {
      file: 'base/explore.json',
      path: 'rows[4].size',
      line: 54,
      column: 15,
      message: 'size 50 is more than 24, the most allowed',
    };
    const draft = { text: explore };
    function Harness() {
      const [history] = useState(() => new EditHistory());
      return (
        <FormEditor
          path="base/explore.json"
          text={draft.text}
          schema={page}
          history={history}
          onChange={() => {}}
          check={() => new Promise(() => {})}
          problems={[problem]}
          onShowInJson={() => {}}
          revealFirst={problem}
        />
      );
    }
    render(<Harness />);
    const trending = within(screen.getByRole('group', { name: /^5\. National Trending Events/ }));
    const size = trending.getByRole('spinbutton', { name: 'Size' });
    await vi.waitFor(() => expect(document.activeElement).toBe(size));
    // Until the form's own check answers, the studio's problems are the ones shown.
    expect(size.getAttribute('aria-invalid')).toBe('true');
  });

  it('edits an override’s operations and says what it cannot edit, sending it to the JSON view', () => {
    const shown: JsonPlace[] = [];
    const text = promos.replace('"size": 6, "empty": "hide"', '"size": "six", "colour": "red"');
    const draft = renderForm(text, {
      file: 'base/explore~promos.json',
      schema: overrideSchema as unknown as JsonSchema,
      onShowInJson: (place) => shown.push(place),
    });
    expect(screen.getByRole('textbox', { name: 'Extends' })).toHaveProperty('value', 'base');
    const op = openRow('Promos (insertBefore popular-local-performers)');
    expect(op.getByRole('combobox', { name: 'Op' })).toHaveProperty('value', 'insertBefore');
    const row = within(op.getByRole('group', { name: 'Row' }));
    expect(row.getByRole('combobox', { name: 'Kind' })).toHaveProperty('value', 'promos');
    expect(row.getByText(/It holds "six", not a number/)).toBeTruthy();
    expect(row.getByText(/kept as written/).textContent).toContain('colour');
    fireEvent.click(row.getByRole('button', { name: 'Show size in the JSON view' }));
    expect(shown).toEqual([{ path: 'operations[0].row.size', line: 8, column: 77 }]);
    // Editing the row's title leaves the fields the form cannot show as they were.
    fireEvent.change(row.getByRole('textbox', { name: 'Title' }), { target: { value: 'Deals' } });
    expect(draft.text).toBe(text.replace('"title": "Promos"', '"title": "Deals"'));
    // Operations reorder like rows.
    fireEvent.click(screen.getByRole('button', { name: 'Move up “remove browse-by-category”' }));
    expect((JSON.parse(draft.text) as { operations: { op: string }[] }).operations.map((o) => o.op)).toEqual([
      'insertBefore',
      'remove',
      'insertAfter',
    ]);
  });

  it('changes a row’s kind, saying what it left out, and undo brings it back', () => {
    const draft = renderForm(explore);
    const row = openRow('Local Performers This Week');
    fireEvent.change(row.getByRole('combobox', { name: 'Kind' }), { target: { value: 'venues' } });
    const changed = JSON.parse(draft.text).rows[2];
    expect(changed).toEqual({
      id: 'local-performers-this-week',
      kind: 'venues',
      title: 'Local Performers This Week',
      size: 4,
      radiusMiles: 50,
      empty: 'hide',
    });
    expect(screen.getByRole('status').textContent).toBe(
      '“Local Performers This Week” is now a venues row. Left out filter and sort, which a venues row does not ' +
        'take; undo brings them back.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(draft.text).toBe(explore);
  });

  it('says so when the draft is not JSON, and offers the JSON view', () => {
    const shown: JsonPlace[] = [];
    renderForm('{ "title": "Explore", ', { onShowInJson: (p) => shown.push(p) });
    expect(screen.getByText(/not valid JSON, so the form cannot show it/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open the JSON view' }));
    expect(shown).toEqual([{ path: '', line: 1, column: 1 }]);
  });
});
