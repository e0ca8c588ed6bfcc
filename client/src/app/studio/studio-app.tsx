import { QueryClientProvider, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { MemoryRouter } from 'react-router';
import { AppLinkNavigation } from '../../components/app-link.js';
import { AuditPanel } from '../../features/studio/audit-panel.js';
import { DraftsPanel } from '../../features/studio/drafts-panel.js';
import { ExperimentsPanel } from '../../features/studio/experiments-panel.js';
import { PublishPanel } from '../../features/studio/publish-panel.js';
import { RowResultsPanel } from '../../features/studio/row-results-panel.js';
import { DEFAULT_RANGE, type ResultRange } from '../../features/studio/row-results.js';
import { needsKey, setStudioKey, studioKey } from '../../features/studio/studio-api.js';
import { useDraftEdits, type DraftEdits } from '../../features/studio/use-draft-edits.js';
import { useStudioState } from '../../features/studio/use-studio.js';
import { createQueryClient } from '../../lib/query-client.js';
import type { StudioStateView } from '../../../../shared/schemas/studio.js';
import { PreviewPanel, type PreviewTarget } from './preview-panel.js';

/** Asks for the studio's key where the server wants one (production with `STUDIO_KEY`). */
function KeyForm({ wrong }: { wrong: boolean }) {
  const id = useId();
  const errorId = useId();
  const [value, setValue] = useState(() => (wrong ? (studioKey() ?? '') : ''));
  const client = useQueryClient();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setStudioKey(value.trim());
    void client.invalidateQueries({ queryKey: ['studio'] });
  };
  return (
    <form className="studio-key" onSubmit={submit}>
      <h2>This studio asks for your key</h2>
      {wrong && (
        <p role="alert" id={errorId}>
          That key was not accepted.
        </p>
      )}
      <label htmlFor={id}>Your studio key</label>
      <input
        id={id}
        type="password"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        autoComplete="current-password"
        required
        autoFocus
        {...(wrong ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
      />
      <button type="submit" className="primary">
        Open the studio
      </button>
    </form>
  );
}

function Studio() {
  const state = useStudioState();
  const drafts = useDraftEdits();
  if (state.isPending) return <p>Loading the drafts…</p>;
  if (state.isError) {
    if (needsKey(state.error)) return <KeyForm wrong={studioKey() !== null} />;
    return <p role="alert">The studio could not load: {state.error.message}</p>;
  }
  return <StudioSections state={state.data} drafts={drafts} />;
}

/** "Encore’s Home page": a brand's page in words. */
function pageLabel(state: StudioStateView, { brand, page }: PreviewTarget): string {
  const brandName = state.brands.find((b) => b.id === brand)?.name ?? brand;
  const pageName = state.pages.find((p) => p.value === page)?.label ?? page;
  return `${brandName}’s ${pageName} page`;
}

/** The studio's sections: the page the preview shows is the one the row results read, over one range. */
function StudioSections({ state, drafts }: { state: StudioStateView; drafts: DraftEdits }) {
  const [target, setTarget] = useState<PreviewTarget>(() => ({ brand: state.brands[0]?.id ?? 'base', page: 'home' }));
  const [range, setRange] = useState<ResultRange>(DEFAULT_RANGE);
  const client = useQueryClient();
  const me = state.me;
  return (
    <>
      <p className="studio-me">
        Signed in as <strong>{me.name}</strong>:{' '}
        {me.grants.map((g) => `${g.role} on ${g.brand === '*' ? 'every brand' : g.brand}`).join(', ')}.{' '}
        {studioKey() !== null && (
          <button
            type="button"
            onClick={() => (setStudioKey(null), void client.invalidateQueries({ queryKey: ['studio'] }))}
          >
            Sign out
          </button>
        )}
      </p>
      <nav className="studio-skip" aria-label="Studio sections">
        <a href="#drafts-heading">Drafts</a> <a href="#preview-heading">Preview</a>{' '}
        <a href="#publish-heading">Publish and history</a> <a href="#row-results-heading">Row results</a>{' '}
        <a href="#experiments-heading">Experiments</a> <a href="#audit-heading">Audit log</a>
      </nav>
      <div className="studio-grid">
        <DraftsPanel state={state} drafts={drafts} />
        <PreviewPanel state={state} target={target} onTarget={setTarget} range={range} />
        <PublishPanel state={state} drafts={drafts} />
      </div>
      <RowResultsPanel
        brand={target.brand}
        page={target.page}
        label={pageLabel(state, target)}
        range={range}
        onRange={setRange}
      />
      <ExperimentsPanel />
      <AuditPanel />
    </>
  );
}

/**
 * The merchandisers' studio: drafts edited and checked, previewed with the storefront's own rows, published
 * and rolled back. Cards link within the preview only (a memory router), never away from the studio.
 */
export function StudioApp() {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <header className="studio-header">
          <h1>Segment studio</h1>
          <a href="/" target="_blank" rel="noopener">
            Open the storefront in a new tab
          </a>
        </header>
        <main id="main" className="studio-main">
          <AppLinkNavigation>
            <Studio />
          </AppLinkNavigation>
        </main>
      </MemoryRouter>
    </QueryClientProvider>
  );
}
