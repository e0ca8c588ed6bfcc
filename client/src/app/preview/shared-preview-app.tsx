import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { MemoryRouter } from 'react-router';
import { AppLinkNavigation } from '../../components/app-link.js';
import { SharedPreviewSchema, type SharedPreviewView } from '../../../../shared/schemas/studio.js';
import { ApiError } from '../../lib/api.js';
import { createQueryClient } from '../../lib/query-client.js';
import { brandStyle, PreviewRows } from '../studio/preview-rows.js';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** The token of `/preview/<token>`, or null for any other address. */
export function tokenOf(pathname: string): string | null {
  const m = /^\/preview\/([A-Za-z0-9_.-]+)\/?$/.exec(pathname);
  return m ? m[1]! : null;
}

/** RULES 18.3: the preview a link shows, asked without a studio key. */
async function sharedPreview(token: string, signal: AbortSignal): Promise<SharedPreviewView> {
  const res = await fetch(`/api/preview/${token}`, { headers: { Accept: 'application/json' }, signal });
  const answer: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const error = (answer as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(res.status, error?.code ?? 'http_error', error?.message ?? `${res.status} ${res.statusText}`);
  }
  return SharedPreviewSchema.parse(answer);
}

/** What the page shows, in words: the drafts now, or the site as of a time; the variation; until when. */
function sourceWords(preview: SharedPreviewView): string {
  const { link, variant } = preview;
  const source =
    link.at === null
      ? 'Drafts not yet published: shoppers do not see this page yet.'
      : `The site as it will be on ${when(link.at)}, with the versions scheduled by then.`;
  const variation =
    link.variation === null ? '' : ` Variation ${link.variation}${variant ? ` (${variant})` : ''} of the experiment.`;
  return `${source}${variation} This link works until ${when(link.expires)}.`;
}

function SharedPreview({ token }: { token: string | null }) {
  const headingId = useId();
  const preview = useQuery({
    queryKey: ['shared-preview', token],
    queryFn: ({ signal }) => sharedPreview(token!, signal),
    enabled: token !== null,
    retry: false,
  });
  const data = preview.data;
  useEffect(() => {
    if (data) document.title = `${data.link.brand.name}: ${data.layout.title} (preview)`;
  }, [data]);

  if (token === null || (preview.isError && preview.error instanceof ApiError && preview.error.status === 404))
    return (
      <main className="shared-preview">
        <h1>This preview link is not valid</h1>
        <p>It may have expired or been revoked. Ask whoever sent it for a new one.</p>
      </main>
    );
  if (preview.isError)
    return (
      <main className="shared-preview">
        <h1>This preview cannot be drawn right now</h1>
        <p role="alert">{preview.error.message}</p>
      </main>
    );
  if (!data)
    return (
      <main className="shared-preview">
        <p>Drawing the page…</p>
      </main>
    );
  return (
    <div style={brandStyle(data.link.brand.theme)} className="shared-preview__page">
      <header className="shared-preview__header">
        <p className="shared-preview__kicker">Preview · {data.link.brand.name}</p>
        <h1 id={headingId}>{data.layout.title}</h1>
        <p>{sourceWords(data)}</p>
      </header>
      <main className="shared-preview">
        <PreviewRows preview={data} labelId={headingId} details={false} />
      </main>
    </div>
  );
}

/**
 * RULES 18.3: a preview link's page: one brand's page drawn by the storefront's own row components, read only,
 * for whoever holds the link. Cards link within the page only (a memory router), as in the studio's preview.
 */
export function SharedPreviewApp() {
  const [client] = useState(createQueryClient);
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <AppLinkNavigation>
          <SharedPreview token={tokenOf(window.location.pathname)} />
        </AppLinkNavigation>
      </MemoryRouter>
    </QueryClientProvider>
  );
}
