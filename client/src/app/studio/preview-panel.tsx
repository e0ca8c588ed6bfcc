import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';
import {
  PreviewSchema,
  type ExperimentView,
  type PreviewLinkBody,
  type PreviewPlace,
  type StudioStateView,
} from '../../../../shared/schemas/studio.js';
import { holdsRole } from '../../../../shared/rules/studio-roles.js';
import type { RowResult } from '../../../../shared/schemas/row-results.js';
import { SharePreview } from '../../features/studio/preview-links.js';
import { RowResultBadge } from '../../features/studio/row-results-panel.js';
import { badgeMetrics, type ResultRange } from '../../features/studio/row-results.js';
import { studioApi } from '../../features/studio/studio-api.js';
import { useExperiments, useRowResults } from '../../features/studio/use-studio.js';
import { brandStyle, PreviewRows } from './preview-rows.js';

type PlaceKind = 'zip' | 'city' | 'coordinates';
interface Place {
  kind: PlaceKind;
  value: string;
}
/** The preview's variation: none forced (the base page), one variation, or every variation side by side. */
type VariationChoice = 'none' | 'all' | number;

const PLACE_HINTS: Record<PlaceKind, { label: string; placeholder: string }> = {
  zip: { label: 'ZIP code', placeholder: '60601' },
  city: { label: 'City', placeholder: 'Chicago, IL' },
  coordinates: { label: 'Coordinates (lat, lng)', placeholder: '41.88, -87.63' },
};

/** What is wrong with a place as typed, in words, or null; empty means the default place (New York). */
export function checkPlace(place: Place): string | null {
  const value = place.value.trim();
  if (!value) return null;
  if (place.kind === 'zip') return /^\d{5}$/.test(value) ? null : 'A ZIP code is 5 digits, such as 60601.';
  if (place.kind === 'city') return value.length >= 2 ? null : 'Name a city, such as Chicago, IL.';
  const parts = value.split(',').map((s) => s.trim());
  const [lat, lng] = parts.map(Number);
  if (parts.length !== 2 || parts.some((p) => p === '') || !Number.isFinite(lat) || !Number.isFinite(lng))
    return 'Give a latitude and a longitude separated by a comma, such as 41.88, -87.63.';
  if (Math.abs(lat!) > 90) return 'A latitude is between -90 and 90.';
  if (Math.abs(lng!) > 180) return 'A longitude is between -180 and 180.';
  return null;
}

function placeParams(place: Place): Record<string, string> {
  const value = place.value.trim();
  if (!value) return {};
  if (place.kind === 'zip') return { zip: value };
  if (place.kind === 'city') return { city: value };
  const [lat = '', lng = ''] = value.split(',').map((s) => s.trim());
  return { lat, lng };
}

/** The brand's page the preview shows, which the row results read too. */
export interface PreviewTarget {
  brand: string;
  page: string;
}

/** The place as a preview link takes it (a place that passed `checkPlace`); none for the default place. */
export function placeBody(place: Place): PreviewPlace | undefined {
  const params = placeParams(place);
  if (params.zip) return { zip: params.zip };
  if (params.city) return { city: params.city };
  if (params.lat && params.lng) return { lat: Number(params.lat), lng: Number(params.lng) };
  return undefined;
}

/** A `datetime-local` value as a time with its zone (the browser's), or undefined when empty or not a time. */
export function zonedTime(local: string): string | undefined {
  if (!local) return undefined;
  const time = new Date(local);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

export function PreviewPanel({
  state,
  target,
  onTarget,
  range,
}: {
  state: StudioStateView;
  target: PreviewTarget;
  onTarget: (target: PreviewTarget) => void;
  /** The range of the row results each row's badge shows. */
  range: ResultRange;
}) {
  const ids = {
    brand: useId(),
    page: useId(),
    kind: useId(),
    place: useId(),
    placeError: useId(),
    variation: useId(),
    asOf: useId(),
  };
  const { brand, page } = target;
  const [draftPlace, setDraftPlace] = useState<Place>({ kind: 'zip', value: '' });
  const [place, setPlace] = useState<Place>(draftPlace);
  const [variation, setVariation] = useState<VariationChoice>('none');
  /** RULES 18.2: the site as of a time (a `datetime-local` value) rather than the drafts; empty: the drafts. */
  const [asOf, setAsOf] = useState('');
  const at = zonedTime(asOf);
  const experiments = useExperiments(brand);
  const experiment = experiments.data?.experiments.find((e) => e.page === page);
  const results = useRowResults(brand, page, range);
  const resultsById = useMemo(() => new Map(results.data?.rows.map((r) => [r.rowId, r])), [results.data]);
  const style = brandStyle(state.brands.find((b) => b.id === brand)?.theme);

  const columns: (number | undefined)[] =
    !experiment || variation === 'none'
      ? [undefined]
      : variation === 'all'
        ? experiment.variations.map((v) => v.index)
        : [variation];
  // RULES 18.3: what a preview link would show: this preview, one variation at a time.
  const sharedPlace = placeBody(place);
  const shared: PreviewLinkBody | null =
    experiment && variation === 'all'
      ? null
      : {
          brand,
          page,
          ...(sharedPlace ? { place: sharedPlace } : {}),
          ...(experiment && typeof variation === 'number' ? { variation } : {}),
          ...(at ? { at } : {}),
        };
  const placeProblem = checkPlace(draftPlace);
  const [showProblem, setShowProblem] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setShowProblem(placeProblem !== null);
    if (placeProblem === null) setPlace(draftPlace);
  };

  return (
    <section className="studio-panel preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading" tabIndex={-1}>
        {at
          ? `The site as of ${new Date(at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}`
          : 'Preview of the drafts'}
      </h2>
      <form className="preview__controls" onSubmit={submit}>
        <div>
          <label htmlFor={ids.brand}>Brand</label>
          <select id={ids.brand} value={brand} onChange={(e) => onTarget({ brand: e.target.value, page })}>
            {state.brands.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.page}>Page</label>
          <select
            id={ids.page}
            value={page}
            onChange={(e) => (onTarget({ brand, page: e.target.value }), setVariation('none'))}
          >
            {state.pages.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.kind}>Place by</label>
          <select
            id={ids.kind}
            value={draftPlace.kind}
            onChange={(e) => setDraftPlace({ kind: e.target.value as PlaceKind, value: '' })}
          >
            {(Object.keys(PLACE_HINTS) as PlaceKind[]).map((k) => (
              <option key={k} value={k}>
                {PLACE_HINTS[k].label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.place}>{PLACE_HINTS[draftPlace.kind].label}</label>
          <input
            id={ids.place}
            value={draftPlace.value}
            placeholder={`e.g. ${PLACE_HINTS[draftPlace.kind].placeholder}`}
            onChange={(e) => {
              setDraftPlace({ ...draftPlace, value: e.target.value });
              setShowProblem(false);
            }}
            {...(showProblem && placeProblem ? { 'aria-invalid': true, 'aria-describedby': ids.placeError } : {})}
          />
          {showProblem && placeProblem && (
            <p id={ids.placeError} className="field-error" role="alert">
              {placeProblem}
            </p>
          )}
        </div>
        <button type="submit">Show this place</button>
        {experiment && (
          <div>
            <label htmlFor={ids.variation}>Variation</label>
            <select
              id={ids.variation}
              value={String(variation)}
              onChange={(e) =>
                setVariation(
                  e.target.value === 'none' || e.target.value === 'all' ? e.target.value : Number(e.target.value),
                )
              }
            >
              <option value="none">Base page (no experiment)</option>
              {experiment.variations.map((v) => (
                <option key={v.index} value={v.index}>
                  {v.index}: {v.name}
                </option>
              ))}
              <option value="all">All variations side by side</option>
            </select>
          </div>
        )}
        <div>
          <label htmlFor={ids.asOf}>The site as of (empty: the drafts)</label>
          <input id={ids.asOf} type="datetime-local" step={1} value={asOf} onChange={(e) => setAsOf(e.target.value)} />
        </div>
      </form>
      {experiment && <ExperimentSummary experiment={experiment} />}
      <SharePreview
        brand={brand}
        canShare={holdsRole(state.me.grants, 'editor', brand)}
        request={shared}
        unavailable={shared ? undefined : 'Choose one variation to share it.'}
      />
      <div
        className={`preview__columns preview__columns--${columns.length}`}
        style={style}
        {...(columns.length > 1 ? { role: 'region', 'aria-label': 'Variations side by side', tabIndex: 0 } : {})}
      >
        {columns.map((index) => (
          <PreviewColumn
            key={index ?? 'base'}
            brand={brand}
            page={page}
            place={place}
            index={index}
            experiment={experiment}
            at={at}
            results={results.data ? resultsById : undefined}
          />
        ))}
      </div>
    </section>
  );
}

function ExperimentSummary({ experiment }: { experiment: ExperimentView }) {
  return (
    <div className="experiment">
      <h3>
        Experiment <code>{experiment.key}</code> ({experiment.name})
      </h3>
      <p>{experiment.rule}</p>
      <p>
        Shoppers can see a variation by adding <code>?{experiment.key}=N</code> to the page address.
      </p>
    </div>
  );
}

function PreviewColumn({
  brand,
  page,
  place,
  index,
  experiment,
  at,
  results,
}: {
  brand: string;
  page: string;
  place: Place;
  index: number | undefined;
  experiment: ExperimentView | undefined;
  at: string | undefined;
  /** The page's row results by row id, once read. */
  results: ReadonlyMap<string, RowResult> | undefined;
}) {
  const params = new URLSearchParams({
    brand,
    page,
    ...placeParams(place),
    ...(index !== undefined ? { variation: String(index) } : {}),
    ...(at ? { at } : {}),
  });
  const preview = useQuery({
    queryKey: ['studio', 'preview', params.toString()],
    queryFn: ({ signal }) => studioApi(`preview?${params}`, PreviewSchema, { signal }),
    retry: false,
  });
  const v = index === undefined ? undefined : experiment?.variations.find((x) => x.index === index);
  const heading = v ? `Variation ${v.index}: ${v.name} (${Math.round(v.weight * 100)}% of guests)` : 'Base page';
  const headingId = useId();
  // A column forcing a variation shows that variation's results (what its events carry); the base column, all.
  const variation = index === undefined ? undefined : (preview.data?.layout.variation ?? 'base');
  return (
    <article className="preview__column" aria-labelledby={headingId}>
      <h3 id={headingId}>{heading}</h3>
      {v && (
        <p className="preview__file">
          {v.file
            ? `Rows from ${v.file}`
            : v.value === 'base'
              ? "The brand's own page, without the experiment's changes"
              : "This brand has no page for this variation: guests in it see the brand's own page"}
        </p>
      )}
      {preview.isPending && <p>Drawing the page…</p>}
      {preview.isError && (
        <p role="alert" className="preview__error">
          {preview.error.message}
        </p>
      )}
      {preview.data && !preview.isError && (
        <PreviewRows
          preview={preview.data}
          labelId={headingId}
          details
          badge={
            results &&
            ((id) => <RowResultBadge metrics={badgeMetrics(results.get(id), variation)} variation={variation} />)
          }
        />
      )}
    </article>
  );
}
