import { lazy, Suspense, useRef, useState } from 'react';
import brandsSchema from '../../../../shared/schemas/json/brands.schema.json' with { type: 'json' };
import overrideSchema from '../../../../shared/schemas/json/segment-override.schema.json' with { type: 'json' };
import pageSchema from '../../../../shared/schemas/json/segment-page.schema.json' with { type: 'json' };
import type { SegmentProblemView, StudioStateView } from '../../../../shared/schemas/studio.js';
import { EditHistory } from './edit-history.js';
import { FormEditor, type FormEditorHandle, type JsonPlace } from './form-editor.js';
import type { JsonEditorHandle } from './json-editor.js';
import type { JsonSchema } from './schema-assist.js';
import type { DraftEdits } from './use-draft-edits.js';
import { checkDraft } from './use-studio.js';

// CodeMirror is the studio's largest part; the file list and the problems show while it loads.
const JsonEditor = lazy(() => import('./json-editor.js').then((m) => ({ default: m.JsonEditor })));

/** The schema a file is checked against: the registry's, an override's (it `extends` a brand), or a page's. */
export function schemaFor(path: string, text: string): JsonSchema {
  if (path === 'brands.json') return brandsSchema as JsonSchema;
  return /"extends"\s*:/.test(text) ? (overrideSchema as unknown as JsonSchema) : (pageSchema as unknown as JsonSchema);
}

/** The two ways to edit a draft: the form, or its JSON text. Both edit the same text. */
export type DraftView = 'form' | 'json';

/** `base/explore.json:12:17`: where a problem is, as `npm run segments -- check` prints it. */
export const problemPlace = (p: SegmentProblemView) => `${p.file}:${p.line}:${p.column}`;

export function DraftsPanel({ state, drafts }: { state: StudioStateView; drafts: DraftEdits }) {
  const [current, setCurrent] = useState(
    () => state.files.find((f) => f.path.endsWith('/explore.json'))?.path ?? state.files[0]?.path ?? 'brands.json',
  );
  const [view, setView] = useState<DraftView>('json');
  const editor = useRef<JsonEditorHandle>(null);
  const form = useRef<FormEditorHandle>(null);
  // The form's undo and redo, per file: they outlast a switch to the JSON view and back.
  const [history] = useState(() => new EditHistory());
  // A problem in another file (or a place the form sends to the JSON view): the editor shows it once it is built.
  const [pendingReveal, setPendingReveal] = useState<SegmentProblemView | null>(null);

  const file = state.files.find((f) => f.path === current);
  const text = drafts.edits[current] ?? file?.text ?? '';

  const open = (problem: SegmentProblemView) => {
    if (problem.file !== current && state.files.some((f) => f.path === problem.file)) {
      setPendingReveal(problem);
      setCurrent(problem.file);
    } else if (view === 'form') {
      form.current?.reveal(problem);
    } else {
      editor.current?.reveal(problem);
    }
  };

  const showInJson = (place: JsonPlace) => {
    setPendingReveal({ file: current, message: '', ...place });
    setView('json');
  };
  const switchTo = (next: DraftView) => {
    setPendingReveal(null);
    setView(next);
  };
  const reveal = pendingReveal?.file === current ? pendingReveal : null;

  const check = (doc: string) => checkDraft(current, doc).then((all) => all.filter((p) => p.file === current));

  const counts = new Map<string, number>();
  for (const p of state.problems) counts.set(p.file, (counts.get(p.file) ?? 0) + 1);

  return (
    <section className="studio-panel drafts" aria-labelledby="drafts-heading">
      <h2 id="drafts-heading" tabIndex={-1}>
        Drafts
      </h2>
      <div className="drafts__body">
        <nav aria-label="Draft files" className="drafts__files">
          <ul>
            {state.files.map((f) => (
              <li key={f.path}>
                <button
                  type="button"
                  className="file-button"
                  aria-current={f.path === current ? 'true' : undefined}
                  onClick={() => {
                    setPendingReveal(null);
                    setCurrent(f.path);
                  }}
                >
                  <span className="file-button__path">{f.path}</span>
                  {f.status !== 'unchanged' && <span className={`tag tag--${f.status}`}>{f.status}</span>}
                  {counts.has(f.path) && (
                    <span className="tag tag--problem">
                      {counts.get(f.path)} problem{counts.get(f.path) === 1 ? '' : 's'}
                    </span>
                  )}
                </button>
              </li>
            ))}
            {state.removed.map((path) => (
              <li key={path} className="file-removed">
                {path} <span className="tag tag--removed">removed</span>
              </li>
            ))}
          </ul>
        </nav>
        <div className="drafts__editor">
          <div className="drafts__editor-head">
            <h3>{current}</h3>
            <span className="save-state" role="status">
              {drafts.error ? `Not saved: ${drafts.error.message}` : drafts.pending ? 'Saving drafts…' : 'Draft saved'}
            </span>
          </div>
          <div className="view-switch" role="group" aria-label={`Edit ${current} as`}>
            <button type="button" aria-pressed={view === 'form'} onClick={() => switchTo('form')}>
              Form
            </button>
            <button type="button" aria-pressed={view === 'json'} onClick={() => switchTo('json')}>
              JSON
            </button>
          </div>
          {view === 'form' ? (
            <FormEditor
              key={current}
              ref={form}
              path={current}
              text={text}
              schema={schemaFor(current, text)}
              history={history}
              onChange={(next) => drafts.change(current, next)}
              check={check}
              problems={state.problems}
              onShowInJson={showInJson}
              revealFirst={reveal}
            />
          ) : (
            <Suspense fallback={<p>Loading the editor…</p>}>
              <JsonEditor
                ref={editor}
                path={current}
                text={text}
                revealFirst={reveal}
                schema={schemaFor(current, text)}
                onChange={(next) => drafts.change(current, next)}
                check={check}
              />
            </Suspense>
          )}
        </div>
      </div>
      <ProblemList problems={state.problems} skipped={state.skipped} onOpen={open} />
    </section>
  );
}

function ProblemList({
  problems,
  skipped,
  onOpen,
}: {
  problems: SegmentProblemView[];
  skipped: StudioStateView['skipped'];
  onOpen(p: SegmentProblemView): void;
}) {
  return (
    <div className="problems" role="region" aria-labelledby="problems-heading">
      <h3 id="problems-heading">
        {problems.length === 0
          ? 'No problems: the drafts can be published'
          : `${problems.length} problem${problems.length === 1 ? '' : 's'}`}
      </h3>
      {problems.length > 0 && (
        <ul>
          {problems.map((p, i) => (
            <li key={i}>
              <button type="button" className="problem" onClick={() => onOpen(p)}>
                <code>{problemPlace(p)}</code> {p.message}
                {p.value !== undefined && !p.message.includes(p.value) && (
                  <>
                    {' '}
                    (found <code>{p.value}</code>)
                  </>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
      {skipped.length > 0 && (
        <>
          <h4>Not checked until those are fixed</h4>
          <ul>
            {skipped.map((s, i) => (
              <li key={i}>
                <code>{s.file}</code> is skipped because <code>{s.because}</code> has problems.
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
