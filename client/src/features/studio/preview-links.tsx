import { useId, useRef, useState, type FormEvent } from 'react';
import {
  PREVIEW_LINK_DAYS,
  PREVIEW_LINK_MAX_DAYS,
  type PreviewLinkBody,
  type PreviewLinkView,
} from '../../../../shared/schemas/studio.js';
import { useMakePreviewLink, usePreviewLinks, useRevokePreviewLink } from './use-studio.js';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Where a link draws its page, in words. */
function placeWords(place: PreviewLinkView['place']): string {
  if (!place) return 'New York (no place given)';
  if (place.zip) return `ZIP ${place.zip}`;
  if (place.city) return place.city;
  return `${place.lat}, ${place.lng}`;
}

/** What a link shows, in a line. */
function linkWords(link: Pick<PreviewLinkView, 'page' | 'place' | 'variation' | 'at'>): string {
  const variation = link.variation === null ? '' : `, variation ${link.variation}`;
  const source = link.at === null ? 'the drafts as they are when opened' : `the site as of ${when(link.at)}`;
  return `${link.page} near ${placeWords(link.place)}${variation}: ${source}`;
}

function linkStatus(link: PreviewLinkView): { word: string; tag: string } {
  if (link.revoked) return { word: `revoked ${when(link.revoked)}`, tag: 'removed' };
  if (Date.parse(link.expires) <= Date.now()) return { word: `expired ${when(link.expires)}`, tag: 'hidden' };
  return { word: `open until ${when(link.expires)}`, tag: 'live' };
}

/**
 * RULES 18.3: "Share preview": a link to the preview on screen (`request`; null, with `unavailable` saying why,
 * when there is nothing one link can show) for people without a studio key, its address to copy, and the brand's
 * links with a way to revoke each. Making and revoking need the editor role on the brand (`canShare`).
 */
export function SharePreview({
  brand,
  request,
  unavailable,
  canShare,
}: {
  brand: string;
  request: PreviewLinkBody | null;
  unavailable?: string | undefined;
  canShare: boolean;
}) {
  const ids = { heading: useId(), days: useId(), url: useId(), list: useId() };
  const [days, setDays] = useState(String(PREVIEW_LINK_DAYS));
  const make = useMakePreviewLink();
  const revoke = useRevokePreviewLink();
  const links = usePreviewLinks(brand);
  const [made, setMade] = useState<{ id: string; url: string; expires: string; shows: string } | null>(null);
  const [copied, setCopied] = useState('');
  const urlField = useRef<HTMLInputElement>(null);
  const dayCount = Number(days);
  const daysProblem =
    Number.isInteger(dayCount) && dayCount >= 1 && dayCount <= PREVIEW_LINK_MAX_DAYS
      ? null
      : `A link lasts 1 to ${PREVIEW_LINK_MAX_DAYS} days.`;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!request || daysProblem) return;
    setCopied('');
    const shows = linkWords({
      page: request.page,
      place: request.place ?? null,
      variation: request.variation ?? null,
      at: request.at ?? null,
    });
    make.mutate({ ...request, days: dayCount }, { onSuccess: (link) => setMade({ ...link, shows }) });
  };
  const copy = async () => {
    if (!made) return;
    try {
      await navigator.clipboard.writeText(made.url);
      setCopied('Copied.');
    } catch {
      urlField.current?.select();
      setCopied('Selected: press Ctrl+C (⌘C on a Mac) to copy it.');
    }
  };

  return (
    <section className="share" aria-labelledby={ids.heading}>
      <h3 id={ids.heading}>Share preview</h3>
      {canShare ? (
        <form className="share__form" onSubmit={submit}>
          <p className="share__note">
            A link anyone can open without a studio key, read only, showing this page as drawn here. Nothing else of the
            studio is reachable through it.
          </p>
          <div>
            <label htmlFor={ids.days}>Link lasts (days)</label>
            <input
              id={ids.days}
              type="number"
              min={1}
              max={PREVIEW_LINK_MAX_DAYS}
              value={days}
              onChange={(e) => setDays(e.target.value)}
              {...(daysProblem ? { 'aria-invalid': true } : {})}
            />
          </div>
          <button type="submit" className="primary" disabled={!request || daysProblem !== null || make.isPending}>
            Share preview
          </button>
          {(unavailable || daysProblem) && <p className="share__note">{unavailable ?? daysProblem}</p>}
        </form>
      ) : (
        <p className="share__note">Making preview links needs the editor role on this brand.</p>
      )}
      <div role="status">
        {make.isError && <p className="field-error">No link was made: {make.error.message}</p>}
        {made && !make.isError && (
          <div className="share__made">
            <label htmlFor={ids.url}>
              Preview link to {made.shows}; open until {when(made.expires)}
            </label>
            <div className="share__url">
              <input id={ids.url} ref={urlField} readOnly value={made.url} onFocus={(e) => e.target.select()} />
              <button type="button" onClick={() => void copy()}>
                Copy link
              </button>
            </div>
            {copied && <p className="share__note">{copied}</p>}
          </div>
        )}
      </div>
      <details className="share__links">
        <summary id={ids.list}>Preview links of this brand{links.data ? ` (${links.data.links.length})` : ''}</summary>
        {links.isError && <p className="field-error">The links could not be read: {links.error.message}</p>}
        {links.data && links.data.links.length === 0 && <p>No links yet.</p>}
        {links.data && links.data.links.length > 0 && (
          <ul aria-labelledby={ids.list}>
            {links.data.links.map((link) => {
              const status = linkStatus(link);
              const open = status.tag === 'live';
              return (
                <li key={link.id}>
                  <span>{linkWords(link)}</span> <span className={`tag tag--${status.tag}`}>{status.word}</span>{' '}
                  <span className="share__by">
                    made by {link.createdBy.name} {when(link.createdAt)}
                  </span>
                  {open && canShare && (
                    <button
                      type="button"
                      onClick={() =>
                        revoke.mutate(link.id, {
                          // The address shown above goes once its link is revoked: it opens nothing now.
                          onSuccess: () => setMade((shown) => (shown?.id === link.id ? null : shown)),
                        })
                      }
                      disabled={revoke.isPending}
                      aria-label={`Revoke the link to ${linkWords(link)}`}
                    >
                      Revoke
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {revoke.isError && <p className="field-error">Not revoked: {revoke.error.message}</p>}
      </details>
    </section>
  );
}
