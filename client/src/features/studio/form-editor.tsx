import { findNodeAtLocation, parse, parseTree } from 'jsonc-parser';
import {
  createContext,
  forwardRef,
  useContext,
  useEffect,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import type { SegmentProblemView } from '../../../../shared/schemas/studio.js';
import { jsonPath } from '../../../../shared/schemas/zod.js';
import type { EditHistory } from './edit-history.js';
import { insertItem, moveItem, removeItem, setValue } from './json-text-edits.js';
import { parsePath, type JsonSchema } from './schema-assist.js';
import {
  changeKind,
  describeForm,
  isWithin,
  newItem,
  placeProblems,
  schemaAt,
  singular,
  type FormField,
  type FormItem,
  type FormList,
  type FormObject,
} from './schema-form.js';

/** How long the form waits after an edit before asking the server for the draft's problems (as the JSON view). */
export const CHECK_DELAY_MS = 400;

export interface FormEditorHandle {
  /** Opens what holds a problem's field and puts the focus on the field. */
  reveal(problem: SegmentProblemView): void;
}

/** A place in the draft to open the JSON view at. */
export interface JsonPlace {
  path: string;
  line: number;
  column: number;
}

interface Props {
  path: string;
  text: string;
  schema: JsonSchema;
  /** Undo and redo: kept by the caller, so they outlive a switch to the JSON view and back. */
  history: EditHistory;
  onChange(text: string): void;
  /** The problems this text has, asked of the server (the JSON view asks the same). */
  check(text: string): Promise<SegmentProblemView[]>;
  /** The studio's problems for this file, shown until the form's own check answers. */
  problems: SegmentProblemView[];
  /** Shows the JSON view at a place: for what the form cannot edit. */
  onShowInJson(place: JsonPlace): void;
  revealFirst?: SegmentProblemView | null;
}

/** The line and column of the value at `key` (or of the nearest value above it that is there). */
export function placeOf(text: string, key: string): JsonPlace {
  const tree = parseTree(text);
  const path = parsePath(key);
  let node = tree && findNodeAtLocation(tree, path);
  for (let n = path.length - 1; !node && tree && n >= 0; n--) node = findNodeAtLocation(tree, path.slice(0, n));
  const offset = node?.offset ?? 0;
  const before = text.slice(0, offset);
  return { path: key, line: before.split('\n').length, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

interface Edit {
  /** What the edit does, as undo names it: "moving “Local Venues” up". */
  label: string;
  /** What is said once it is done, or nothing (typing is not read out key by key). */
  announce?: string;
  /** Keystrokes in one field are one step of undo. */
  typing?: string;
  /** The control to focus once the edit is drawn (a `data-focus` value). */
  focus?: string;
  /** Items of a list that change places: `to(i)` is item i's new place, or null when it is gone. */
  reorder?: { list: string; to(index: number): number | null };
  change(text: string): string;
}

/** Where item `i` of a list goes when item `from` moves to `to`. */
export const afterMove = (from: number, to: number) => (i: number) =>
  i === from ? to : from < to && i > from && i <= to ? i - 1 : to < from && i >= to && i < from ? i + 1 : i;

/** Which items are open, keyed by their paths, after the items of a list change places: open ones stay open. */
export function movedOpen(
  open: ReadonlyMap<string, boolean>,
  list: string,
  to: (index: number) => number | null,
): Map<string, boolean> {
  const prefix = `${list}[`;
  const out = new Map<string, boolean>();
  for (const [key, isOpen] of open) {
    const index = key.startsWith(prefix) ? /^(\d+)\]/.exec(key.slice(prefix.length)) : null;
    if (!index) {
      out.set(key, isOpen);
      continue;
    }
    const next = to(Number(index[1]));
    if (next !== null) out.set(`${prefix}${next}]${key.slice(prefix.length + index[0].length)}`, isOpen);
  }
  return out;
}

interface FormContextValue {
  apply(edit: Edit): void;
  problemsAt(key: string): SegmentProblemView[];
  problemsWithin(key: string): number;
  /** Whether an item was opened (true) or closed (false) by hand; undefined when it never was. */
  isOpen(item: FormItem): boolean | undefined;
  setOpen(item: FormItem, open: boolean): void;
  showInJson(key: string): void;
  settle(): void;
  /** The file's parsed value, for what an edit needs to know of it (a row's fields when its kind changes). */
  value: unknown;
  schema: JsonSchema;
}

const FormContext = createContext<FormContextValue | null>(null);
const useForm = () => useContext(FormContext)!;

const quoted = (label: string) => `“${label}”`;
/** `a`, `a and b`, `a, b and c`. */
const listed = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A problem in words, with where the JSON view shows it. */
function problemText(p: SegmentProblemView): string {
  const found = p.value !== undefined && !p.message.includes(p.value) ? ` (found ${p.value})` : '';
  return `${p.message}${found} (line ${p.line}, column ${p.column})`;
}

/**
 * The draft file as a form: its fields from the segment JSON Schema, rows (and an override's operations) listed to
 * add, remove and reorder, by drag and drop or by the keyboard alone. Every edit writes the draft's own text at the
 * path it changes, so the JSON view shows the same file, saved and checked as it is.
 */
export const FormEditor = forwardRef<FormEditorHandle, Props>(function FormEditor(
  { path, text, schema, history, onChange, check, problems, onShowInJson, revealFirst },
  ref,
) {
  const model = useMemo(() => describeForm(schema, text), [schema, text]);
  const value = useMemo(() => (model.ok ? (parse(text) as unknown) : null), [model.ok, text]);
  // The check the caller gives is new each render; the one asked is the latest.
  const checkRef = useRef(check);
  useLayoutEffect(() => {
    checkRef.current = check;
  });
  const root = useRef<HTMLDivElement>(null);
  const pendingFocus = useRef<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [open, setOpenState] = useState<ReadonlyMap<string, boolean>>(new Map());

  // The server's problems for the text as it is now, asked a moment after the last edit.
  const [checked, setChecked] = useState<{ text: string; problems: SegmentProblemView[] } | null>(null);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      checkRef.current(text).then(
        (found) => live && setChecked({ text, problems: found.filter((p) => p.file === path) }),
        () => {},
      );
    }, CHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, text]);
  const shownProblems = checked ? checked.problems : problems.filter((p) => p.file === path);
  const placed = useMemo(
    () => (model.ok ? placeProblems(model.root, shownProblems) : new Map<string, SegmentProblemView[]>()),
    [model, shownProblems],
  );

  // Every edit starts from the text as drawn: each key or click is drawn before the next is handled.
  const apply = (edit: Edit) => {
    const before = text;
    let next: string;
    try {
      next = edit.change(before);
    } catch (err) {
      setAnnouncement(`Not changed: ${err instanceof Error ? err.message : String(err)}.`);
      return;
    }
    if (next === before) return;
    history.record(path, before, next, edit.label, edit.typing);
    if (edit.focus) pendingFocus.current = edit.focus;
    const reorder = edit.reorder;
    if (reorder) setOpenState((open) => movedOpen(open, reorder.list, reorder.to));
    onChange(next);
    if (edit.announce) setAnnouncement(edit.announce);
  };

  // A button that can no longer be pressed hands the focus to the other one, not to the page.
  const handOver = (from: 'undo' | 'redo', to: 'undo' | 'redo') => {
    if (document.activeElement?.getAttribute('data-focus') === `toolbar:${from}`)
      pendingFocus.current = `toolbar:${to}`;
  };
  const undo = () => {
    const step = history.undo(path, text);
    if (!step) return;
    if (!history.canUndo(path, step.text)) handOver('undo', 'redo');
    onChange(step.text);
    setAnnouncement(`Undone: ${step.label}.`);
  };
  const redo = () => {
    const step = history.redo(path, text);
    if (!step) return;
    if (!history.canRedo(path, step.text)) handOver('redo', 'undo');
    onChange(step.text);
    setAnnouncement(`Redone: ${step.label}.`);
  };

  const focusKey = (key: string) => {
    const target = root.current?.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
    const control = target?.matches('input, select, button, textarea')
      ? target
      : target?.querySelector<HTMLElement>('input, select, button, textarea');
    if (!control) return false;
    control.focus();
    control.scrollIntoView?.({ block: 'center' });
    return true;
  };

  // After an edit is drawn, the focus goes where it said (a moved row's handle follows the row).
  // One try, in the render the edit is drawn in: a focus left waiting would be taken later, unasked.
  useLayoutEffect(() => {
    const key = pendingFocus.current;
    pendingFocus.current = null;
    if (key) focusKey(key);
  });

  const reveal = (problem: SegmentProblemView) => {
    if (!model.ok) return;
    const key = [...placeProblems(model.root, [problem]).keys()][0] ?? '';
    const opened = new Map(open);
    const visit = (o: FormObject) => {
      for (const f of o.fields) {
        if (f.control === 'group') visit(f.body);
        if (f.control !== 'list') continue;
        for (const item of f.list.items) {
          if (!isWithin(key, item.key)) continue;
          opened.set(item.key, true);
          if (item.body) visit(item.body);
        }
      }
    };
    visit(model.root);
    setOpenState(opened);
    pendingFocus.current = key;
  };
  useImperativeHandle(ref, () => ({ reveal }));
  const revealed = useRef(false);
  useEffect(() => {
    if (revealFirst && !revealed.current) {
      revealed.current = true;
      reveal(revealFirst);
    }
    // Once, for the problem chosen in another file before this one opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const context: FormContextValue = {
    apply,
    problemsAt: (key) => placed.get(key) ?? [],
    problemsWithin: (key) =>
      [...placed.entries()].filter(([k]) => k !== '' && isWithin(k, key)).reduce((n, [, ps]) => n + ps.length, 0),
    isOpen: (item) => open.get(item.key),
    setOpen: (item, isOpen) => setOpenState(new Map(open).set(item.key, isOpen)),
    showInJson: (key) => onShowInJson(placeOf(text, key)),
    settle: () => history.settle(path),
    value,
    schema,
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    if (!mod || e.altKey) return;
    const key = e.key.toLowerCase();
    if (key === 'z') {
      e.preventDefault();
      if (e.shiftKey) redo();
      else undo();
    } else if (key === 'y' && !e.shiftKey) {
      e.preventDefault();
      redo();
    }
  };

  const headingId = useId();
  return (
    <div className="form-editor" ref={root} onKeyDown={onKeyDown} role="region" aria-labelledby={headingId}>
      <h4 id={headingId} className="sr-only">
        Form for {path}
      </h4>
      <div className="form-editor__toolbar">
        <button
          type="button"
          onClick={undo}
          disabled={!history.canUndo(path, text)}
          aria-keyshortcuts="Control+Z Meta+Z"
          data-focus="toolbar:undo"
        >
          Undo
        </button>
        <button
          type="button"
          onClick={redo}
          disabled={!history.canRedo(path, text)}
          aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
          data-focus="toolbar:redo"
        >
          Redo
        </button>
      </div>
      <p className="sr-only" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </p>
      {model.ok ? (
        <FormContext.Provider value={context}>
          <Problems problems={placed.get('') ?? []} />
          <ObjectFields body={model.root} />
        </FormContext.Provider>
      ) : (
        <div className="form-note">
          <p>{model.reason}</p>
          <Problems problems={shownProblems} />
          <button type="button" onClick={() => context.showInJson('')}>
            Open the JSON view
          </button>
        </div>
      )}
    </div>
  );
});

function Problems({ problems, id }: { problems: SegmentProblemView[]; id?: string }) {
  if (problems.length === 0) return null;
  return (
    <ul className="field-error form-problems" id={id}>
      {problems.map((p, i) => (
        <li key={i}>{problemText(p)}</li>
      ))}
    </ul>
  );
}

/** An object's fields, what the form does not know of it, and why it shows no more. */
function ObjectFields({ body }: { body: FormObject }) {
  const form = useForm();
  return (
    <>
      {body.fields.map((field) => (
        <FieldView key={field.key} field={field} />
      ))}
      {body.note && <p className="form-note">{body.note}</p>}
      {body.unknown.length > 0 && (
        <p className="form-note">
          {body.unknown.length === 1 ? 'A field' : 'Fields'} the form does not edit:{' '}
          {body.unknown.map((k, i) => (
            <span key={k}>
              {i > 0 && ', '}
              <code>{k}</code>
            </span>
          ))}
          . {body.unknown.length === 1 ? 'It is' : 'They are'} kept as written.{' '}
          <button type="button" onClick={() => form.showInJson(jsonPath([...body.path, body.unknown[0]!]))}>
            Show in the JSON view
          </button>
        </p>
      )}
    </>
  );
}

/** The label, help and problems every control has, tied to it for assistive technology. */
function useFieldIds(key: string) {
  const form = useForm();
  const id = useId();
  const problems = form.problemsAt(key);
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  return {
    id,
    helpId,
    errorId,
    problems,
    describedBy: (help: string) => [problems.length > 0 ? errorId : '', help ? helpId : ''].filter(Boolean).join(' '),
  };
}

/** A field's name as its label or legend says it. */
const labelText = (field: FormField) => `${field.label}${field.required ? '' : ' (optional)'}`;

/** A field's documentation from the schema, which its control is described by. */
function Help({ field, ids }: { field: FormField; ids: ReturnType<typeof useFieldIds> }) {
  return field.help ? (
    <p className="form-field__help" id={ids.helpId}>
      {field.help}
    </p>
  ) : null;
}

/** A field of several controls: a fieldset described by its problems and help, under its legend. */
function FieldsetFrame({
  field,
  ids,
  className,
  legend = labelText(field),
  children,
}: {
  field: FormField;
  ids: ReturnType<typeof useFieldIds>;
  className: string;
  legend?: string;
  children: ReactNode;
}) {
  const describedBy = ids.describedBy(field.help);
  return (
    <fieldset
      className={className}
      data-focus={field.key}
      {...(describedBy ? { 'aria-describedby': describedBy } : {})}
    >
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

function FieldFrame({
  field,
  ids,
  children,
  label = true,
}: {
  field: FormField;
  ids: ReturnType<typeof useFieldIds>;
  children: ReactNode;
  label?: boolean;
}) {
  return (
    <div className="form-field" data-focus={field.key}>
      {label && <label htmlFor={ids.id}>{labelText(field)}</label>}
      {children}
      <Problems problems={ids.problems} id={ids.errorId} />
      <Help field={field} ids={ids} />
    </div>
  );
}

function FieldView({ field }: { field: FormField }) {
  switch (field.control) {
    case 'text':
      return <TextField field={field} />;
    case 'number':
      return <NumberField field={field} />;
    case 'checkbox':
      return <CheckboxField field={field} />;
    case 'select':
      return <SelectField field={field} />;
    case 'choices':
      return <ChoicesField field={field} />;
    case 'words':
      return <WordsField field={field} />;
    case 'group':
      return <GroupField field={field} />;
    case 'list':
      return <ListField field={field} list={field.list} />;
    case 'fixed':
      return <FixedField field={field} />;
  }
}

/** What a field is called in an announcement: "the title of “Local Venues”" for a field of a row. */
function fieldWords(field: FormField): string {
  const label = field.label.toLowerCase();
  return field.owner ? `the ${label} of ${quoted(field.owner)}` : `the ${label}`;
}

function controlProps(field: FormField, ids: ReturnType<typeof useFieldIds>) {
  const describedBy = ids.describedBy(field.help);
  return {
    id: ids.id,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(ids.problems.length > 0 ? { 'aria-invalid': true as const } : {}),
    ...(field.required ? { 'aria-required': true as const } : {}),
  };
}

function TextField({ field }: { field: Extract<FormField, { control: 'text' }> }) {
  const form = useForm();
  const ids = useFieldIds(field.key);
  return (
    <FieldFrame field={field} ids={ids}>
      <input
        type="text"
        {...controlProps(field, ids)}
        value={field.value ?? ''}
        placeholder={field.example !== undefined ? `e.g. ${field.example}` : undefined}
        maxLength={field.maxLength}
        spellCheck={field.name !== 'id'}
        onBlur={form.settle}
        onChange={(e) => {
          const next = e.target.value;
          form.apply({
            label: `typing in ${fieldWords(field)}`,
            typing: field.key,
            change: (t) => setValue(t, field.path, next === '' && !field.required ? undefined : next),
          });
        }}
      />
    </FieldFrame>
  );
}

/** A text box whose text is kept while it is typed (`1.`, `nfl,`), and written when it means a value. */
function useDraftText(shown: string) {
  const [draft, setDraft] = useState<string | null>(null);
  return { text: draft ?? shown, setDraft, clear: () => setDraft(null) };
}

function NumberField({ field }: { field: Extract<FormField, { control: 'number' }> }) {
  const form = useForm();
  const ids = useFieldIds(field.key);
  const draft = useDraftText(field.value === undefined ? '' : String(field.value));
  return (
    <FieldFrame field={field} ids={ids}>
      <input
        type="number"
        {...controlProps(field, ids)}
        value={draft.text}
        min={field.min}
        max={field.max}
        step={field.integer ? 1 : 'any'}
        onBlur={() => {
          draft.clear();
          form.settle();
        }}
        onChange={(e) => {
          const raw = e.target.value.trim();
          draft.setDraft(e.target.value);
          const n = Number(raw);
          if (raw === '' ? field.required : !Number.isFinite(n)) return;
          form.apply({
            label: `changing ${fieldWords(field)}`,
            typing: field.key,
            change: (t) => setValue(t, field.path, raw === '' ? undefined : n),
          });
        }}
      />
    </FieldFrame>
  );
}

function CheckboxField({ field }: { field: Extract<FormField, { control: 'checkbox' }> }) {
  const form = useForm();
  const ids = useFieldIds(field.key);
  return (
    <FieldFrame field={field} ids={ids} label={false}>
      <label className="form-field__check">
        <input
          type="checkbox"
          {...controlProps(field, ids)}
          checked={field.value ?? false}
          onChange={(e) => {
            const checked = e.target.checked;
            form.apply({
              label: `${checked ? 'checking' : 'unchecking'} ${fieldWords(field)}`,
              change: (t) => setValue(t, field.path, checked),
            });
          }}
        />{' '}
        {field.label}
      </label>
    </FieldFrame>
  );
}

function SelectField({ field }: { field: Extract<FormField, { control: 'select' }> }) {
  const form = useForm();
  const ids = useFieldIds(field.key);
  const empty =
    field.value === undefined || !field.required
      ? field.defaultValue !== undefined
        ? `Default (${field.defaultValue})`
        : field.required
          ? 'Choose…'
          : 'None'
      : null;
  const choose = (next: string) => {
    if (field.variant) {
      const objectPath = field.path.slice(0, -1);
      const alts = schemaAt(form.schema, form.value, objectPath);
      const object = objectPath.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], form.value);
      const { changes, removed, added } = changeKind(
        form.schema,
        alts,
        (object ?? {}) as Record<string, unknown>,
        next,
      );
      const last = objectPath.at(-1);
      const noun = typeof last === 'number' ? singular(String(objectPath.at(-2))) : String(last ?? 'file');
      const what = `${next} ${noun}`;
      const name = field.owner ? quoted(field.owner) : `The ${noun}`;
      const left =
        removed.length > 0
          ? ` Left out ${listed(removed)}, which a ${what} does not take; ` +
            `undo brings ${removed.length === 1 ? 'it' : 'them'} back.`
          : '';
      const more = added.length > 0 ? ` Added ${listed(added)}, which a ${what} needs.` : '';
      form.apply({
        label: `making ${name} a ${what}`,
        announce: `${name} is now a ${what}.${left}${more}`,
        change: (t) => changes.reduce((acc, c) => setValue(acc, [...objectPath, c.name], c.value), t),
      });
      return;
    }
    form.apply({
      label: `changing ${fieldWords(field)}`,
      change: (t) => setValue(t, field.path, next === '' ? undefined : next),
    });
  };
  return (
    <FieldFrame field={field} ids={ids}>
      <select {...controlProps(field, ids)} value={field.value ?? ''} onChange={(e) => choose(e.target.value)}>
        {empty !== null && <option value="">{empty}</option>}
        {field.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

function ChoicesField({ field }: { field: Extract<FormField, { control: 'choices' }> }) {
  const form = useForm();
  const ids = useFieldIds(field.key);
  const chosen = new Set(field.value ?? []);
  return (
    <FieldsetFrame field={field} ids={ids} className="form-field form-choices">
      {field.options.map((o) => (
        <label key={o.value} className="form-field__check">
          <input
            type="checkbox"
            checked={chosen.has(o.value)}
            {...(ids.problems.length > 0 ? { 'aria-invalid': true } : {})}
            onChange={(e) => {
              const on = e.target.checked;
              const next = field.options.map((x) => x.value).filter((v) => (v === o.value ? on : chosen.has(v)));
              form.apply({
                label: `${on ? 'adding' : 'taking'} ${o.value} ${on ? 'to' : 'from'} ${fieldWords(field)}`,
                change: (t) => setValue(t, field.path, next.length === 0 && !field.required ? undefined : next),
              });
            }}
          />{' '}
          {o.label}
        </label>
      ))}
      <Problems problems={ids.problems} id={ids.errorId} />
      <Help field={field} ids={ids} />
    </FieldsetFrame>
  );
}

/** `nfl, nba` → `["nfl", "nba"]`. */
const words = (text: string) => text.split(/[,\s]+/).filter(Boolean);

function WordsField({ field }: { field: Extract<FormField, { control: 'words' }> }) {
  const form = useForm();
  const ids = useFieldIds(field.key);
  const draft = useDraftText((field.value ?? []).join(', '));
  return (
    <FieldFrame field={{ ...field, label: `${field.label}, separated by commas` }} ids={ids}>
      <input
        type="text"
        {...controlProps(field, ids)}
        value={draft.text}
        spellCheck={false}
        onBlur={() => {
          draft.clear();
          form.settle();
        }}
        onChange={(e) => {
          draft.setDraft(e.target.value);
          const next = words(e.target.value);
          form.apply({
            label: `typing in ${fieldWords(field)}`,
            typing: field.key,
            change: (t) => setValue(t, field.path, next.length === 0 && !field.required ? undefined : next),
          });
        }}
      />
    </FieldFrame>
  );
}

function GroupField({ field }: { field: Extract<FormField, { control: 'group' }> }) {
  const ids = useFieldIds(field.key);
  return (
    <FieldsetFrame field={field} ids={ids} className="form-group">
      <Help field={field} ids={ids} />
      <Problems problems={ids.problems} id={ids.errorId} />
      <ObjectFields body={field.body} />
    </FieldsetFrame>
  );
}

function FixedField({ field }: { field: Extract<FormField, { control: 'fixed' }> }) {
  const form = useForm();
  const ids = useFieldIds(field.key);
  return (
    <div className="form-field form-note" data-focus={field.key}>
      <p>
        <strong>{field.label}</strong>: {field.reason}{' '}
        <button type="button" onClick={() => form.showInJson(field.key)}>
          Show {field.label.toLowerCase()} in the JSON view
        </button>
      </p>
      <Problems problems={ids.problems} id={ids.errorId} />
    </div>
  );
}

/** The list's items in order, each opened to edit, moved by its handle (drag, or Alt+Arrow keys) or removed. */
function ListField({ field, list }: { field: FormField; list: FormList }) {
  const form = useForm();
  const ids = useFieldIds(field.key);
  const [kind, setKind] = useState(list.choices[0]?.value ?? '');
  const kindId = useId();
  const instructionsId = useId();
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dropAt, setDropAt] = useState<number | null>(null);
  const count = list.items.length;
  const full = list.maxItems !== undefined && count >= list.maxItems;
  const noun = list.noun;

  const move = (item: FormItem, to: number, control: 'handle' | 'up' | 'down') => {
    if (to < 0 || to >= count || to === item.index) return;
    const direction = to < item.index ? 'up' : 'down';
    const target = jsonPath([...list.path, to]);
    // A button that cannot be pressed at the new place gives the focus to the handle.
    const stays = control === 'handle' || (control === 'up' ? to > 0 : to < count - 1);
    form.apply({
      label: `moving ${quoted(item.label)} ${direction}`,
      announce: `Moved ${quoted(item.label)} ${direction}: ${noun} ${to + 1} of ${count}.`,
      focus: `${target}:${stays ? control : 'handle'}`,
      reorder: { list: list.key, to: afterMove(item.index, to) },
      change: (t) => moveItem(t, list.path, item.index, to),
    });
  };

  const remove = (item: FormItem) => {
    const next = item.index < count - 1 ? item.index : item.index - 1;
    form.apply({
      label: `removing the ${noun} ${quoted(item.label)}`,
      announce: `Removed the ${noun} ${quoted(item.label)}. Undo brings it back.`,
      focus: next >= 0 ? `${jsonPath([...list.path, next])}:handle` : `${list.key}:add`,
      reorder: { list: list.key, to: (i) => (i === item.index ? null : i > item.index ? i - 1 : i) },
      change: (t) => removeItem(t, list.path, item.index),
    });
  };

  const add = () => {
    const [schema] = schemaAt(form.schema, form.value, list.path);
    const siblings = list.path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], form.value);
    const value = newItem(form.schema, schema ?? {}, kind, Array.isArray(siblings) ? siblings : []);
    const what = kind ? `${kind} ${noun}` : noun;
    form.apply({
      label: `adding a ${what}`,
      announce:
        `Added a ${what} at the end, ${noun} ${count + 1} of ${count + 1}: ` +
        `it starts as the schema's example; open it to edit its fields.`,
      focus: `${jsonPath([...list.path, count])}:handle`,
      change: (t) => insertItem(t, list.path, count, value),
    });
  };

  return (
    <FieldsetFrame field={field} ids={ids} className="form-list" legend={`${field.label} (${count})`}>
      <Help field={field} ids={ids} />
      <p className="sr-only" id={instructionsId}>
        Press Alt with Arrow Up or Arrow Down to move it, or drag it.
      </p>
      <Problems problems={ids.problems} id={ids.errorId} />
      <ol className="form-list__items">
        {list.items.map((item) => (
          <ListItem
            key={item.index}
            item={item}
            list={list}
            instructionsId={instructionsId}
            dropping={dropAt === item.index && dragFrom !== item.index}
            onMove={move}
            onRemove={remove}
            drag={{
              start: (e) => {
                setDragFrom(item.index);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', item.label);
              },
              over: (e) => {
                if (dragFrom === null) return;
                e.preventDefault();
                e.dataTransfer.dropEffect = 'move';
                setDropAt(item.index);
              },
              drop: (e) => {
                e.preventDefault();
                setDragFrom(null);
                setDropAt(null);
                const moved = dragFrom === null ? undefined : list.items[dragFrom];
                if (moved) move(moved, item.index, 'handle');
              },
              end: () => {
                setDragFrom(null);
                setDropAt(null);
              },
            }}
          />
        ))}
      </ol>
      <div className="form-list__add">
        {list.choices.length > 1 && (
          <div>
            <label htmlFor={kindId}>Kind of the new {noun}</label>
            <select id={kindId} value={kind} onChange={(e) => setKind(e.target.value)}>
              {list.choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
        )}
        <button type="button" onClick={add} disabled={full} data-focus={`${list.key}:add`}>
          Add {list.choices.length > 1 ? `a ${kind} ${noun}` : `a ${noun}`}
        </button>
        {full && (
          <span className="form-field__help">
            {sentence(field.label)} holds at most {list.maxItems}.
          </span>
        )}
      </div>
    </FieldsetFrame>
  );
}

interface DragHandlers {
  start(e: DragEvent): void;
  over(e: DragEvent): void;
  drop(e: DragEvent): void;
  end(): void;
}

function ListItem({
  item,
  list,
  instructionsId,
  dropping,
  onMove,
  onRemove,
  drag,
}: {
  item: FormItem;
  list: FormList;
  instructionsId: string;
  dropping: boolean;
  onMove(item: FormItem, to: number, control: 'handle' | 'up' | 'down'): void;
  onRemove(item: FormItem): void;
  drag: DragHandlers;
}) {
  const form = useForm();
  const titleId = useId();
  const bodyId = useId();
  const problems = form.problemsWithin(item.key);
  // An item with a problem in it opens by itself, until it is opened or closed by hand.
  const open = form.isOpen(item) ?? problems > 0;
  const last = list.items.length - 1;
  const name = quoted(item.label);
  const onHandleKey = (e: KeyboardEvent) => {
    if (!e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowUp') {
      e.preventDefault();
      onMove(item, item.index - 1, 'handle');
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      onMove(item, item.index + 1, 'handle');
    }
  };
  return (
    <li
      className={`form-item${dropping ? ' form-item--drop' : ''}`}
      onDragOver={drag.over}
      onDrop={drag.drop}
      aria-labelledby={titleId}
    >
      <div className="form-item__head">
        <button
          type="button"
          className="form-item__handle"
          draggable
          onDragStart={drag.start}
          onDragEnd={drag.end}
          onKeyDown={onHandleKey}
          aria-label={`Reorder ${name}, ${list.noun} ${item.index + 1} of ${list.items.length}`}
          aria-describedby={instructionsId}
          aria-keyshortcuts="Alt+ArrowUp Alt+ArrowDown"
          data-focus={`${item.key}:handle`}
        >
          <span aria-hidden="true">⠿</span>
        </button>
        <span className="form-item__title" id={titleId}>
          {item.index + 1}. {item.label}
          {item.tag && <span className="tag"> {item.tag}</span>}
          {problems > 0 && (
            <span className="tag tag--problem">
              {' '}
              {problems} problem{problems === 1 ? '' : 's'}
            </span>
          )}
        </span>
        <span className="form-item__actions">
          <button type="button" aria-expanded={open} aria-controls={bodyId} onClick={() => form.setOpen(item, !open)}>
            {open ? 'Close' : 'Edit'}
            <span className="sr-only"> {name}</span>
          </button>
          <button
            type="button"
            onClick={() => onMove(item, item.index - 1, 'up')}
            disabled={item.index === 0}
            data-focus={`${item.key}:up`}
          >
            Move up<span className="sr-only"> {name}</span>
          </button>
          <button
            type="button"
            onClick={() => onMove(item, item.index + 1, 'down')}
            disabled={item.index === last}
            data-focus={`${item.key}:down`}
          >
            Move down<span className="sr-only"> {name}</span>
          </button>
          <button type="button" onClick={() => onRemove(item)}>
            Remove<span className="sr-only"> {name}</span>
          </button>
        </span>
      </div>
      <div id={bodyId} className="form-item__body" role="group" aria-labelledby={titleId} hidden={!open}>
        {open && (
          <>
            <Problems problems={form.problemsAt(item.key)} />
            {item.body ? (
              <ObjectFields body={item.body} />
            ) : (
              <p className="form-note">
                {item.reason}{' '}
                <button type="button" onClick={() => form.showInJson(item.key)}>
                  Show it in the JSON view
                </button>
              </p>
            )}
          </>
        )}
      </div>
    </li>
  );
}
