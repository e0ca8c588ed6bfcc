import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { NOTE_MAX_LENGTH, type StudioStateView, type VersionSummaryView } from '../../../../shared/schemas/studio.js';
import type { DraftEdits } from './use-draft-edits.js';
import { useDiscardDrafts, useDraftDiff, useHistory, usePublish, useRestore, useVersion } from './use-studio.js';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** A unified diff with its added and removed lines marked in words too, not by colour alone. */
function Diff({ text, label }: { text: string; label: string }) {
  if (!text) return <p>No differences.</p>;
  return (
    <pre className="diff" role="region" aria-label={label} tabIndex={0}>
      {text.split('\n').map((line, i) => (
        <span
          key={i}
          className={
            line.startsWith('+') && !line.startsWith('+++')
              ? 'diff__add'
              : line.startsWith('-') && !line.startsWith('---')
                ? 'diff__del'
                : undefined
          }
        >
          {line}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

export function PublishPanel({ state, drafts }: { state: StudioStateView; drafts: DraftEdits }) {
  const noteId = useId();
  const [note, setNote] = useState('');
  const diff = useDraftDiff();
  const publish = usePublish();
  const discard = useDiscardDrafts();
  const changed = state.files.some((f) => f.status !== 'unchanged') || state.removed.length > 0;
  // One line says how the last action went: a newer action's outcome replaces an older one's.
  const [outcome, setOutcome] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // What was typed last is saved first: what is published is what the editor shows.
    setOutcome('');
    void drafts.flush().then(
      () =>
        publish.mutate(
          { note },
          {
            onSuccess: (done) => {
              setNote('');
              setOutcome(`Published version ${done.version.version}. Shoppers see it now.`);
            },
            onError: (err) => setOutcome(`Not published: ${err.message}`),
          },
        ),
      (err: Error) => setOutcome(`Not published: the last edits could not be saved (${err.message})`),
    );
  };

  return (
    <section className="studio-panel publish" aria-labelledby="publish-heading">
      <h2 id="publish-heading" tabIndex={-1}>
        Publish
      </h2>
      <p>
        {state.live
          ? `Shoppers see version ${state.live.version}, published ` +
            `${when(state.live.publishedAt)}${state.live.author ? ` by ${state.live.author}` : ''}: ` +
            `“${state.live.note}”.`
          : 'Nothing has been published yet.'}
      </p>
      <details open={changed}>
        <summary>{changed ? 'What the drafts change' : 'The drafts are the live set'}</summary>
        {diff.data ? <Diff text={diff.data.diff} label="Changes in the drafts" /> : <p>Loading the changes…</p>}
      </details>
      <form onSubmit={submit} className="publish__form">
        <label htmlFor={noteId}>What this publish changes (one line, required)</label>
        <input
          id={noteId}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          maxLength={NOTE_MAX_LENGTH}
          required
        />
        <div className="publish__actions">
          <button
            type="submit"
            className="primary"
            disabled={publish.isPending || (!changed && !drafts.pending) || state.problems.length > 0}
          >
            Publish
          </button>
          <Confirmed
            label="Discard drafts"
            question="Discard every change in the drafts? They become the live set again."
            yes="Yes, discard the drafts"
            disabled={discard.isPending || !changed}
            onConfirm={() => {
              drafts.clear();
              setOutcome('');
              discard.mutate(undefined, {
                onSuccess: () => setOutcome('The drafts are the live set again.'),
                onError: (err) => setOutcome(`Not discarded: ${err.message}`),
              });
            }}
          />
        </div>
        <p role="status" className="publish__result">
          {state.problems.length > 0 && changed ? 'Fix the problems before publishing. ' : ''}
          {outcome}
        </p>
      </form>
      <History onOutcome={setOutcome} />
    </section>
  );
}

function History({ onOutcome }: { onOutcome(text: string): void }) {
  const history = useHistory();
  const restore = useRestore();
  const [open, setOpen] = useState<number | null>(null);
  const detail = useVersion(open);
  return (
    <div className="history">
      <h3>History</h3>
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
              <button
                type="button"
                aria-expanded={open === v.version}
                onClick={() => setOpen(open === v.version ? null : v.version)}
              >
                {open === v.version ? 'Hide' : 'Show'} changes of version {v.version}
              </button>
              {v.version !== history.data.live && (
                <Confirmed
                  label={`Restore version ${v.version}`}
                  question={`Publish version ${v.version}'s files again, for shoppers now?`}
                  yes={`Yes, restore version ${v.version}`}
                  disabled={restore.isPending}
                  onConfirm={() => {
                    onOutcome('');
                    restore.mutate(
                      { version: v.version },
                      {
                        onSuccess: (done) =>
                          onOutcome(
                            `Restored version ${done.version.restoredFrom} as version ` +
                              `${done.version.version}. Shoppers see it now.`,
                          ),
                        onError: (err) => onOutcome(`Not restored: ${err.message}`),
                      },
                    );
                  }}
                />
              )}
            </div>
            {open === v.version &&
              (detail.data ? (
                <Diff text={detail.data.diff} label={`Changes of version ${v.version}`} />
              ) : (
                <p>Loading…</p>
              ))}
          </li>
        ))}
      </ol>
    </div>
  );
}

/** A button whose action asks once more, in the page, before it changes what shoppers see or drops work. */
function Confirmed({
  label,
  question,
  yes,
  disabled,
  onConfirm,
}: {
  label: string;
  question: string;
  yes: string;
  disabled: boolean;
  onConfirm(): void;
}) {
  const [asking, setAsking] = useState(false);
  const first = useRef<HTMLButtonElement>(null);
  const yesButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yesButton.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" ref={first} disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  const close = () => {
    setAsking(false);
    requestAnimationFrame(() => first.current?.focus());
  };
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        ref={yesButton}
        className="primary"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {yes}
      </button>
      <button type="button" onClick={close}>
        Cancel
      </button>
    </span>
  );
}
