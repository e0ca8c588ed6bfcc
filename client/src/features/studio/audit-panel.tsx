import { useState } from 'react';
import type { AuditEntry } from '../../../../shared/schemas/studio.js';
import { useAudit } from './use-studio.js';

const ACTION_TEXT: Record<AuditEntry['action'], string> = {
  save: 'saved a draft',
  remove: 'removed a draft',
  discard: 'discarded drafts',
  publish: 'published',
  rollback: 'rolled back',
  schedule: 'scheduled',
  unschedule: 'cancelled a schedule',
  'scheduled-publish': 'scheduled version published',
  'scheduled-failed': 'scheduled version not published',
  'preview-link': 'shared a preview',
  'revoke-link': 'revoked a preview link',
  'user-add': 'added a user',
  'user-change': 'changed a user',
  'user-remove': 'removed a user',
};

/** RULES 18.5: who did what in the studio and on the command line, newest first, with each change's diff. */
export function AuditPanel() {
  const audit = useAudit();
  const [open, setOpen] = useState<number | null>(null);
  return (
    <section className="studio-panel audit" aria-labelledby="audit-heading">
      <h2 id="audit-heading" tabIndex={-1}>
        Audit log
      </h2>
      {audit.isPending && <p>Loading the audit log…</p>}
      {audit.isError && <p role="alert">{audit.error.message}</p>}
      {audit.data?.entries.length === 0 && <p>Nothing has been done yet.</p>}
      <ol className="audit__list">
        {audit.data?.entries.map((e, i) => (
          <li key={`${e.at}-${i}`}>
            <div className="history__line">
              <time dateTime={e.at}>
                {new Date(e.at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}
              </time>
              <strong>{e.actor.name}</strong>
              <span>{ACTION_TEXT[e.action]}</span>
              <span className="history__note">{e.summary}</span>
            </div>
            {e.diff && (
              <button type="button" aria-expanded={open === i} onClick={() => setOpen(open === i ? null : i)}>
                {open === i ? 'Hide' : 'Show'} the change
              </button>
            )}
            {open === i && e.diff && (
              <pre className="diff" role="region" aria-label={`The change: ${e.summary}`} tabIndex={0}>
                {e.diff}
              </pre>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
