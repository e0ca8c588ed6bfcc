import { useId, useState, type FormEvent } from 'react';
import { AUTHOR_MAX_LENGTH, NOTE_MAX_LENGTH, type StudioStateView, type VersionSummaryView } from '../../../../schemas/studio.js';
import type { DraftEdits } from './use-draft-edits.js';
import { useDiscardDrafts, useDraftDiff, useHistory, usePublish, useRestore, useVersion } from './use-studio.js';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A unified diff with its added and removed lines marked in words too, not by colour alone. */
function Diff({ text, label }: { text: string; label: string }) {
  if (!text) return <p>No differences.</p>;
  return (
    <pre className="diff" aria-label={label} tabIndex={0}>
      {text.split('\n').map((line, i) => (
        <span key={i} className={line.startsWith('+') && !line.startsWith('+++') ? 'diff__add' : line.startsWith('-') && !line.startsWith('---') ? 'diff__del' : undefined}>
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

export function PublishPanel({ state, drafts }: { state: StudioStateView; drafts: DraftEdits }) {
  const noteId = useId();
  const authorId = useId();
  const [note, setNote] = useState('');
  const [author, setAuthor] = useState(() => localStorage.getItem('studio-author') ?? '');
  const diff = useDraftDiff();
  const publish = usePublish();
  const discard = useDiscardDrafts();
  const changed = state.files.some((f) => f.status !== 'unchanged') || state.removed.length > 0;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (author) localStorage.setItem('studio-author', author);
    // What was typed last is saved first: what is published is what the editor shows.
    void drafts.flush().then(
      () => publish.mutate({ note, ...(author.trim() ? { author: author.trim() } : {}) }, { onSuccess: () => setNote('') }),
      () => {},
    );
  };

  return (
    <section className="studio-panel publish" aria-labelledby="publish-heading">
      <h2 id="publish-heading">Publish</h2>
      <p>
        {state.live
          ? `Shoppers see version ${state.live.version}, published ${when(state.live.publishedAt)}${state.live.author ? ` by ${state.live.author}` : ''}: “${state.live.note}”.`
          : 'Nothing has been published yet.'}
      </p>
      <details open={changed}>
        <summary>{changed ? 'What the drafts change' : 'The drafts are the live set'}</summary>
        {diff.data ? <Diff text={diff.data.diff} label="Changes in the drafts" /> : <p>Loading the changes…</p>}
      </details>
      <form onSubmit={submit} className="publish__form">
        <label htmlFor={noteId}>What this publish changes (one line)</label>
        <input id={noteId} value={note} onChange={(e) => setNote(e.target.value)} maxLength={NOTE_MAX_LENGTH} required />
        <label htmlFor={authorId}>Your name (optional)</label>
        <input id={authorId} value={author} onChange={(e) => setAuthor(e.target.value)} maxLength={AUTHOR_MAX_LENGTH} autoComplete="name" />
        <div className="publish__actions">
          <button type="submit" className="primary" disabled={publish.isPending || (!changed && !drafts.pending) || state.problems.length > 0}>
            Publish
          </button>
          <button type="button" disabled={discard.isPending || !changed} onClick={() => {
              drafts.clear();
              discard.mutate();
            }}>
            Discard drafts
          </button>
        </div>
        <p role="status" className="publish__result">
          {state.problems.length > 0 && changed ? 'Fix the problems before publishing.' : ''}
          {publish.isSuccess && `Published version ${publish.data.version.version}. Shoppers see it now.`}
          {publish.isError && `Not published: ${publish.error.message}`}
        </p>
      </form>
      <History />
    </section>
  );
}

function History() {
  const history = useHistory();
  const restore = useRestore();
  const [open, setOpen] = useState<number | null>(null);
  const detail = useVersion(open);
  return (
    <div className="history">
      <h3>History</h3>
      <p role="status">
        {restore.isSuccess && `Restored version ${restore.data.version.restoredFrom} as version ${restore.data.version.version}. Shoppers see it now.`}
        {restore.isError && `Not restored: ${restore.error.message}`}
      </p>
      {history.isError && <p role="alert">{history.error.message}</p>}
      <ol reversed className="history__list">
        {history.data?.versions.map((v: VersionSummaryView) => (
          <li key={v.version}>
            <div className="history__line">
              <strong>Version {v.version}</strong>
              {v.version === history.data.live && <span className="tag tag--live">live</span>}
              <span>{when(v.publishedAt)}</span>
              <span>{v.author ?? 'someone'}</span>
              <span className="history__note">{v.note}</span>
            </div>
            <div className="history__actions">
              <button type="button" aria-expanded={open === v.version} onClick={() => setOpen(open === v.version ? null : v.version)}>
                {open === v.version ? 'Hide' : 'Show'} changes of version {v.version}
              </button>
              {v.version !== history.data.live && (
                <button type="button" disabled={restore.isPending} onClick={() => restore.mutate({ version: v.version, ...(localStorage.getItem('studio-author') ? { author: localStorage.getItem('studio-author')! } : {}) })}>
                  Restore version {v.version}
                </button>
              )}
            </div>
            {open === v.version && (detail.data ? <Diff text={detail.data.diff} label={`Changes of version ${v.version}`} /> : <p>Loading…</p>)}
          </li>
        ))}
      </ol>
    </div>
  );
}
