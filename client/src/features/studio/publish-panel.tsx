import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  EVERY_BRAND,
  NOTE_MAX_LENGTH,
  type ScheduleSummaryView,
  type StudioStateView,
  type VersionSummaryView,
} from '../../../../shared/schemas/studio.js';
import { holdsRole } from '../../../../shared/rules/studio-roles.js';
import type { DraftEdits } from './use-draft-edits.js';
import {
  useDiscardDrafts,
  useDraftDiff,
  useHistory,
  usePublish,
  useRestore,
  useSchedule,
  useSchedules,
  useUnschedule,
  useVersion,
} from './use-studio.js';

const whenText = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

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

/** What a publish may take: every brand's drafts (a publisher of every brand), or one brand's. */
function publishScopes(state: StudioStateView): { value: string; label: string }[] {
  const grants = state.me.grants;
  return [
    ...(holdsRole(grants, 'publisher', EVERY_BRAND) ? [{ value: '', label: "Every brand's drafts" }] : []),
    ...state.brands
      .filter((b) => holdsRole(grants, 'publisher', b.id))
      .map((b) => ({ value: b.id, label: `${b.name}'s drafts only` })),
  ];
}

export function PublishPanel({ state, drafts }: { state: StudioStateView; drafts: DraftEdits }) {
  const ids = { note: useId(), scope: useId(), when: useId(), at: useId() };
  const [note, setNote] = useState('');
  const scopes = publishScopes(state);
  const [scope, setScope] = useState(scopes[0]?.value ?? '');
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');
  const diff = useDraftDiff();
  const publish = usePublish();
  const schedule = useSchedule();
  const discard = useDiscardDrafts();
  const changed = state.files.some((f) => f.status !== 'unchanged') || state.removed.length > 0;
  // One line says how the last action went: a newer action's outcome replaces an older one's.
  const [outcome, setOutcome] = useState('');
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // What was typed last is saved first: what is published is what the editor shows.
    setOutcome('');
    const brand = scope ? { brand: scope } : {};
    void drafts.flush().then(
      () => {
        if (when === 'later') {
          const time = new Date(at);
          if (!at || !Number.isFinite(time.getTime())) return setOutcome('Not scheduled: choose a date and time.');
          schedule.mutate(
            { note, at: time.toISOString(), ...brand },
            {
              onSuccess: (done) => {
                setNote('');
                setOutcome(
                  `Scheduled as number ${done.schedule.id} for ${whenText(done.schedule.at)}. ` +
                    'It is checked again then, and published if it still builds.',
                );
              },
              onError: (err) => setOutcome(`Not scheduled: ${err.message}`),
            },
          );
          return;
        }
        publish.mutate(
          { note, ...brand },
          {
            onSuccess: (done) => {
              setNote('');
              setOutcome(`Published version ${done.version.version}. Shoppers see it now.`);
            },
            onError: (err) => setOutcome(`Not published: ${err.message}`),
          },
        );
      },
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
            `${whenText(state.live.publishedAt)}${state.live.author ? ` by ${state.live.author}` : ''}: ` +
            `“${state.live.note}”.`
          : 'Nothing has been published yet.'}
      </p>
      <details open={changed}>
        <summary>{changed ? 'What the drafts change' : 'The drafts are the live set'}</summary>
        {diff.data ? <Diff text={diff.data.diff} label="Changes in the drafts" /> : <p>Loading the changes…</p>}
      </details>
      {scopes.length === 0 ? (
        <p className="publish__role">
          You can save drafts and share previews; publishing needs the publisher role on a brand.
        </p>
      ) : (
        <form onSubmit={submit} className="publish__form">
          <label htmlFor={ids.note}>What this publish changes (one line, required)</label>
          <input
            id={ids.note}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={NOTE_MAX_LENGTH}
            required
          />
          <label htmlFor={ids.scope}>Publish</label>
          <select id={ids.scope} value={scope} onChange={(e) => setScope(e.target.value)}>
            {scopes.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
          <label htmlFor={ids.when}>When</label>
          <select id={ids.when} value={when} onChange={(e) => setWhen(e.target.value as 'now' | 'later')}>
            <option value="now">Now</option>
            <option value="later">At a date and time</option>
          </select>
          {when === 'later' && (
            <>
              <label htmlFor={ids.at}>Date and time ({zone})</label>
              <input id={ids.at} type="datetime-local" value={at} onChange={(e) => setAt(e.target.value)} required />
            </>
          )}
          <p className="publish__as">Recorded as {state.me.name}.</p>
          <div className="publish__actions">
            <button
              type="submit"
              className="primary"
              disabled={
                publish.isPending || schedule.isPending || (!changed && !drafts.pending) || state.problems.length > 0
              }
            >
              {when === 'later' ? 'Schedule' : 'Publish'}
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
        </form>
      )}
      <p role="status" className="publish__result">
        {state.problems.length > 0 && changed ? 'Fix the problems before publishing. ' : ''}
        {outcome}
      </p>
      <Scheduled canCancel={scopes.length > 0} onOutcome={setOutcome} />
      <History canRestore={scopes.length > 0} onOutcome={setOutcome} />
    </section>
  );
}

const STATUS_TEXT: Record<ScheduleSummaryView['status'], string> = {
  scheduled: 'scheduled',
  published: 'published',
  failed: 'not published',
  cancelled: 'cancelled',
};

/** RULES 18.2: the versions waiting for their time, and what became of the others. */
function Scheduled({ canCancel, onOutcome }: { canCancel: boolean; onOutcome(text: string): void }) {
  const schedules = useSchedules();
  const unschedule = useUnschedule();
  const list = schedules.data?.schedules ?? [];
  if (list.length === 0) return null;
  return (
    <div className="scheduled">
      <h3>Scheduled</h3>
      <ol className="scheduled__list">
        {list.map((s) => (
          <li key={s.id}>
            <div className="history__line">
              <strong>Number {s.id}</strong>
              <span className={`tag tag--${s.status}`}>{STATUS_TEXT[s.status]}</span>
              <span>{whenText(s.at)}</span>
              <span>{s.author.name}</span>
              <span className="history__note">{s.note}</span>
            </div>
            {s.status === 'published' && s.version !== undefined && <p>Published as version {s.version}.</p>}
            {s.status === 'failed' && <p className="field-error">Not published: {s.reason}</p>}
            {s.status === 'scheduled' && canCancel && (
              <Confirmed
                label={`Cancel number ${s.id}`}
                question={`Cancel scheduled version ${s.id}, due ${whenText(s.at)}?`}
                yes={`Yes, cancel number ${s.id}`}
                disabled={unschedule.isPending}
                onConfirm={() =>
                  unschedule.mutate(s.id, {
                    onSuccess: () => onOutcome(`Scheduled version ${s.id} is cancelled.`),
                    onError: (err) => onOutcome(`Not cancelled: ${err.message}`),
                  })
                }
              />
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

function History({ canRestore, onOutcome }: { canRestore: boolean; onOutcome(text: string): void }) {
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
              <span>{whenText(v.publishedAt)}</span>
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
              {v.version !== history.data.live && canRestore && (
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
