import { autocompletion, type Completion, type CompletionContext } from '@codemirror/autocomplete';
import { json } from '@codemirror/lang-json';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, hoverTooltip } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import type { SegmentProblemView } from '../../../../shared/schemas/studio.js';
import { hoverAt, problemRange, suggest, suggestedFix, type JsonSchema } from './schema-assist.js';

export interface JsonEditorHandle {
  /** Puts the cursor on a problem's line and column and scrolls it into view. */
  reveal(problem: SegmentProblemView): void;
}

interface Props {
  /** The draft's path: a new path starts a new document. */
  path: string;
  text: string;
  schema: JsonSchema;
  /** Called with the whole text after each change. */
  onChange(text: string): void;
  /** The problems this text has, asked of the server: the same ones `npm run segments -- check` prints. */
  check(text: string): Promise<SegmentProblemView[]>;
  /** A problem to put the cursor on once the editor for this file is built (one chosen in another file). */
  revealFirst?: SegmentProblemView | null;
}

/** Puts the cursor on a problem's place, scrolled to the middle of the editor. */
function revealIn(editor: EditorView, problem: SegmentProblemView): void {
  const { from } = problemRange(editor.state.doc.toString(), problem);
  editor.dispatch({ selection: { anchor: from }, effects: EditorView.scrollIntoView(from, { y: 'center' }) });
  editor.focus();
}

function diagnostics(text: string, problems: SegmentProblemView[]): Diagnostic[] {
  return problems.map((problem) => {
    const { from, to } = problemRange(text, problem);
    const fix = suggestedFix(problem.message);
    const quoted = text.slice(from, to).startsWith('"');
    return {
      from,
      to,
      severity: 'error',
      source: `${problem.file}:${problem.line}:${problem.column}`,
      message: problem.message,
      ...(fix && quoted
        ? {
            actions: [
              {
                name: `Use "${fix}"`,
                apply: (view: EditorView, start: number, end: number) =>
                  view.dispatch({ changes: { from: start, to: end, insert: JSON.stringify(fix) } }),
              },
            ],
          }
        : {}),
    };
  });
}

/**
 * A draft segment file in CodeMirror 6: JSON highlighting, completion and hover documentation from the
 * segment JSON Schema, and the server's own problems marked inline as they are typed.
 */
export const JsonEditor = forwardRef<JsonEditorHandle, Props>(function JsonEditor(
  { path, text, schema, onChange, check, revealFirst },
  ref,
) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The editor is built once per file; the callbacks it calls are read fresh each time.
  const latest = useRef({ schema, onChange, check, revealFirst });
  latest.current = { schema, onChange, check, revealFirst };

  useEffect(() => {
    const complete = (context: CompletionContext) => {
      const doc = context.state.doc.toString();
      const found = suggest(latest.current.schema, doc, context.pos);
      if (found.length === 0 || (!context.explicit && !context.matchBefore(/["\w-]+$/))) return null;
      const from = Math.min(...found.map((s) => s.from));
      return {
        // Matched against what is typed up to the cursor; applying replaces the whole word, its closing quote too.
        from,
        filter: true,
        options: found.map((s): Completion => ({
          label: s.type === 'property' ? JSON.stringify(s.label) : s.label,
          apply: (view, _completion, start, end) =>
            view.dispatch({
              changes: { from: start, to: Math.max(end, s.to), insert: s.insert },
              selection: { anchor: start + s.insert.length },
            }),
          type: s.type,
          ...(s.detail ? { detail: s.detail } : {}),
          ...(s.info ? { info: s.info } : {}),
        })),
      };
    };
    const hover = hoverTooltip((v, pos) => {
      const found = hoverAt(latest.current.schema, v.state.doc.toString(), pos);
      if (!found) return null;
      return {
        pos: found.from,
        end: found.to,
        create: () => {
          const dom = document.createElement('div');
          dom.className = 'studio-hover';
          dom.textContent = found.text;
          return { dom };
        },
      };
    });
    const lint = linter(
      async (v) => {
        const doc = v.state.doc.toString();
        try {
          return diagnostics(doc, await latest.current.check(doc));
        } catch {
          return [];
        }
      },
      { delay: 400 },
    );
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: text,
        extensions: [
          basicSetup,
          json(),
          EditorView.lineWrapping,
          lintGutter(),
          lint,
          autocompletion({ override: [complete] }),
          hover,
          EditorView.cspNonce.of(document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? ''),
          EditorView.contentAttributes.of({ 'aria-label': `Draft of ${path}`, 'aria-multiline': 'true' }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    // The scrolling box is reachable by keyboard too (WCAG 2.1.1), not only the text inside it.
    editor.scrollDOM.tabIndex = 0;
    editor.scrollDOM.setAttribute('role', 'region');
    editor.scrollDOM.setAttribute('aria-label', `Scroll the draft of ${path}`);
    view.current = editor;
    const first = latest.current.revealFirst;
    if (first) revealIn(editor, first);
    return () => {
      editor.destroy();
      view.current = null;
    };
    // A new file, or the same file changed outside the editor (discarded, restored), starts a new document.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path]);

  // Text that arrives from outside (a discard, a rollback) replaces the document unless it is what is there.
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== text && !editor.hasFocus) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text } });
    }
  }, [text]);

  useImperativeHandle(ref, () => ({
    reveal(problem) {
      if (view.current) revealIn(view.current, problem);
    },
  }));

  return <div className="json-editor" ref={host} />;
});
