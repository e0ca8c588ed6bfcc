import { z } from './zod.js';
import { BrandAnswerSchema, LayoutResponseSchema } from './layout.js';
import { MAX_LATITUDE, MAX_LONGITUDE, ZIP_PATTERN } from '../rules/location.js';

/** What the studio's API answers (`/api/studio/*`); the studio parses every answer with these. */

/** One mistake in a segment file, where it is and what is allowed instead. */
export const SegmentProblemSchema = z.object({
  file: z.string(),
  path: z.string(),
  message: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  value: z.string().optional(),
});
export type SegmentProblemView = z.infer<typeof SegmentProblemSchema>;

/** A page left out because a file it is built from has problems of its own. */
export const SkippedPageSchema = z.object({ file: z.string(), page: z.string(), because: z.string() });
export type SkippedPageView = z.infer<typeof SkippedPageSchema>;

export const SetChangesSchema = z.object({
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
});

export const VersionSummarySchema = z.object({
  version: z.number().int(),
  publishedAt: z.string(),
  author: z.string().nullable(),
  note: z.string(),
  restoredFrom: z.number().int().nullable(),
  files: z.number().int(),
  changes: SetChangesSchema,
});
export type VersionSummaryView = z.infer<typeof VersionSummarySchema>;

/**
 * RULES 18.4: what a studio user may do on a brand, each role including the ones before it: a viewer reads drafts,
 * previews, results and history; an editor also saves drafts and makes preview links; a publisher also publishes,
 * schedules and rolls back; an admin also edits the brand registry and reads the whole audit log.
 */
export const STUDIO_ROLES = ['viewer', 'editor', 'publisher', 'admin'] as const;
export type StudioRole = (typeof STUDIO_ROLES)[number];
/** A grant on every brand. */
export const EVERY_BRAND = '*';
export const StudioGrantSchema = z.object({ brand: z.string(), role: z.enum(STUDIO_ROLES) });
export type StudioGrant = z.infer<typeof StudioGrantSchema>;
/** Who the studio is being used by, as `/api/studio/state` says. */
export const StudioActorSchema = z.object({ id: z.string(), name: z.string(), grants: z.array(StudioGrantSchema) });
export type StudioActorView = z.infer<typeof StudioActorSchema>;

export const StudioStateSchema = z.object({
  live: VersionSummarySchema.nullable(),
  files: z.array(z.object({ path: z.string(), text: z.string(), status: z.enum(['unchanged', 'changed', 'added']) })),
  removed: z.array(z.string()),
  problems: z.array(SegmentProblemSchema),
  skipped: z.array(SkippedPageSchema),
  brands: z.array(BrandAnswerSchema.pick({ id: true, name: true, theme: true })),
  pages: z.array(z.object({ value: z.string(), label: z.string() })),
  me: StudioActorSchema,
});
export type StudioStateView = z.infer<typeof StudioStateSchema>;

export const CheckResultSchema = StudioStateSchema.pick({ problems: true, skipped: true });

export const PreviewRowSchema = z.object({
  id: z.string(),
  status: z.enum(['ok', 'empty', 'timeout', 'error', 'hidden']),
  items: z.number().int(),
  ms: z.number(),
  file: z.string(),
  via: z.string(),
});
export type PreviewRowView = z.infer<typeof PreviewRowSchema>;

export const PreviewSchema = z.object({
  // Rows are parsed one by one by the row registry, as on the storefront.
  layout: LayoutResponseSchema.extend({ rows: z.array(z.unknown()) }),
  rows: z.array(PreviewRowSchema),
  variant: z.string().nullable(),
  problems: z.array(SegmentProblemSchema),
});
export type PreviewView = z.infer<typeof PreviewSchema>;

export const ExperimentViewSchema = z.object({
  key: z.string(),
  feature: z.string(),
  name: z.string(),
  page: z.string(),
  hashAttribute: z.string(),
  coverage: z.number(),
  condition: z.record(z.string(), z.unknown()).nullable(),
  rule: z.string(),
  variations: z.array(
    z.object({
      index: z.number().int(),
      key: z.string(),
      name: z.string(),
      value: z.string(),
      weight: z.number(),
      file: z.string().nullable(),
    }),
  ),
});
export type ExperimentView = z.infer<typeof ExperimentViewSchema>;
export const ExperimentsSchema = z.object({ experiments: z.array(ExperimentViewSchema) });

export const HistorySchema = z.object({ live: z.number().int().nullable(), versions: z.array(VersionSummarySchema) });
export const VersionDetailSchema = VersionSummarySchema.extend({ diff: z.string() });
export const PublishedSchema = z.object({ version: VersionSummarySchema });
export const DiffSchema = z.object({ diff: z.string() });

/** The header the studio sends its key in (`STUDIO_KEY`). */
export const STUDIO_KEY_HEADER = 'X-Studio-Key';
/** Product decision: a publish note is one line. */
export const NOTE_MAX_LENGTH = 200;
/** Versions are numbered in a PostgreSQL `integer`. */
export const VERSION_MAX = 2_147_483_647;

// A line of text a person typed: no control characters (PostgreSQL's text refuses NUL; none belongs in a note).
const line = (what: string, max: number, required?: string) =>
  z
    .string(required ? { error: required } : undefined)
    .trim()
    .min(required ? 1 : 0, required)
    .max(max, `${what} has at most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, `${what} is one line of text, without control characters`);

const brandId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'brand must be a brand id such as "encore"');
/**
 * A publish names no author: the history records the studio user who published (RULES 18.4). With `brand`, only
 * that brand's drafts are published.
 */
export const PublishBodySchema = z
  .object({
    note: line('note', NOTE_MAX_LENGTH, 'note is required: say in a line what this publish changes'),
    brand: brandId.optional(),
  })
  .strict();
export const RestoreBodySchema = z.object({ note: line('note', NOTE_MAX_LENGTH).optional() }).strict();
export const DiscardBodySchema = z.object({ brand: brandId.optional() }).strict();
/** A time with its offset, as `2026-12-04T09:00:00-05:00` or `…Z`: a time without a zone is ambiguous. */
export const ZonedTimeSchema = z.iso.datetime({
  offset: true,
  error: 'a time with its zone, such as 2026-12-04T09:00:00-05:00',
});
/** RULES 18.2: the drafts (one brand's, with `brand`) to be published at `at`. */
export const ScheduleBodySchema = z
  .object({
    note: line('note', NOTE_MAX_LENGTH, 'note is required: say in a line what this publish changes'),
    brand: brandId.optional(),
    at: ZonedTimeSchema,
  })
  .strict();
export const ScheduleParamsSchema = z.object({
  id: z.string().regex(/^[1-9][0-9]{0,9}$/, 'a scheduled version is a whole number such as 3'),
});
export const ScheduleSummarySchema = z.object({
  id: z.string(),
  at: z.string(),
  note: z.string(),
  author: z.object({ id: z.string(), name: z.string() }),
  brands: z.array(z.string()),
  createdAt: z.string(),
  status: z.enum(['scheduled', 'published', 'failed', 'cancelled']),
  version: z.number().int().optional(),
  reason: z.string().optional(),
  settledAt: z.string().optional(),
  changes: SetChangesSchema,
});
export type ScheduleSummaryView = z.infer<typeof ScheduleSummarySchema>;
export const SchedulesSchema = z.object({ schedules: z.array(ScheduleSummarySchema) });
export const ScheduledSchema = z.object({ schedule: ScheduleSummarySchema });
export const VersionParamsSchema = z.object({
  n: z
    .string()
    .regex(/^[0-9]{1,10}$/, 'a version number is a whole number such as 3')
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, 'a version number is 1 or more')
        .max(VERSION_MAX, `a version number is at most ${VERSION_MAX}`),
    ),
});
export const FileBodySchema = z.object({ text: z.string({ error: 'text is required: the whole file' }) }).strict();
export const CheckBodySchema = z
  .object({
    path: z.string({ error: 'path is required: the file being edited' }).max(200),
    text: z.string({ error: 'text is required: the whole file' }),
  })
  .strict();

/** RULES 18.3: a preview link lasts this many days unless told otherwise, and at most `PREVIEW_LINK_MAX_DAYS`. */
export const PREVIEW_LINK_DAYS = 7;
export const PREVIEW_LINK_MAX_DAYS = 30;

const PLACE_SHAPE = 'place is one of { "zip": "60601" }, { "lat": 41.88, "lng": -87.63 } or { "city": "Chicago, IL" }';
/** Where a shared preview is drawn: a ZIP, coordinates or a city, as the studio's preview takes them. */
export const PreviewPlaceSchema = z
  .object({
    zip: z.string().regex(ZIP_PATTERN, 'place.zip must be a 5-digit US ZIP code').optional(),
    lat: z
      .number()
      .min(-MAX_LATITUDE, `place.lat is between -${MAX_LATITUDE} and ${MAX_LATITUDE}`)
      .max(MAX_LATITUDE, `place.lat is between -${MAX_LATITUDE} and ${MAX_LATITUDE}`)
      .optional(),
    lng: z
      .number()
      .min(-MAX_LONGITUDE, `place.lng is between -${MAX_LONGITUDE} and ${MAX_LONGITUDE}`)
      .max(MAX_LONGITUDE, `place.lng is between -${MAX_LONGITUDE} and ${MAX_LONGITUDE}`)
      .optional(),
    city: line('place.city', 80).min(2, 'place.city must name a city, e.g. "Chicago, IL"').optional(),
  })
  .strict()
  .refine(
    (p) =>
      [p.zip !== undefined, p.lat !== undefined || p.lng !== undefined, p.city !== undefined].filter(Boolean).length ===
        1 && (p.lat === undefined) === (p.lng === undefined),
    PLACE_SHAPE,
  );
export type PreviewPlace = z.infer<typeof PreviewPlaceSchema>;

const pageSlug = z
  .string({ error: 'page is required: home, a group page or a category slug' })
  .regex(/^[a-z0-9-]{1,64}$/, 'page must be home, a group page or a category slug such as "nfl"');

/**
 * RULES 18.3: a link to a preview for people without a studio key: one brand's page at a place, in a variation,
 * drawn from the drafts as they are when it is opened, or, with `at`, the site as it will be then.
 */
export const PreviewLinkBodySchema = z
  .object({
    brand: brandId,
    page: pageSlug,
    place: PreviewPlaceSchema.optional(),
    variation: z
      .number({ error: 'variation must be a variation index: 0, 1…' })
      .int('variation must be a variation index: 0, 1…')
      .min(0, 'variation must be a variation index: 0, 1…')
      .max(99, 'variation must be a variation index: 0, 1…')
      .optional(),
    at: ZonedTimeSchema.optional(),
    days: z
      .number({ error: `days must be a whole number of days, 1 to ${PREVIEW_LINK_MAX_DAYS}` })
      .int(`days must be a whole number of days, 1 to ${PREVIEW_LINK_MAX_DAYS}`)
      .min(1, `days must be a whole number of days, 1 to ${PREVIEW_LINK_MAX_DAYS}`)
      .max(PREVIEW_LINK_MAX_DAYS, `a preview link lasts at most ${PREVIEW_LINK_MAX_DAYS} days`)
      .default(PREVIEW_LINK_DAYS),
  })
  .strict();
export type PreviewLinkBody = z.input<typeof PreviewLinkBodySchema>;

/** A preview link's id: 16 URL-safe characters. */
export const PREVIEW_LINK_ID = /^[A-Za-z0-9_-]{16}$/;
export const PreviewLinkParamsSchema = z.object({
  id: z.string().regex(PREVIEW_LINK_ID, 'a preview link id is 16 letters, digits, - or _'),
});

/** A preview link as the studio lists it; `url` only for those who may make links on its brand. */
export const PreviewLinkSchema = z.object({
  id: z.string(),
  brand: z.string(),
  page: z.string(),
  place: z
    .object({
      zip: z.string().optional(),
      lat: z.number().optional(),
      lng: z.number().optional(),
      city: z.string().optional(),
    })
    .nullable(),
  variation: z.number().int().nullable(),
  at: z.string().nullable(),
  createdBy: z.object({ id: z.string(), name: z.string() }),
  createdAt: z.string(),
  expires: z.string(),
  revoked: z.string().nullable(),
  url: z.string().optional(),
});
export type PreviewLinkView = z.infer<typeof PreviewLinkSchema>;
export const PreviewLinksSchema = z.object({ links: z.array(PreviewLinkSchema) });
/** What making a link answers (201). */
export const PreviewLinkMadeSchema = z.object({ id: z.string(), url: z.string(), expires: z.string() });
export const PreviewLinkRevokedSchema = z.object({ link: PreviewLinkSchema });

/** What a preview link's page reads (`GET /api/preview/:token`): the studio's preview, and what the link shows. */
export const SharedPreviewSchema = PreviewSchema.extend({
  link: z.object({
    brand: BrandAnswerSchema.pick({ id: true, name: true, theme: true }),
    page: z.string(),
    variation: z.number().int().nullable(),
    at: z.string().nullable(),
    expires: z.string(),
  }),
});
export type SharedPreviewView = z.infer<typeof SharedPreviewSchema>;

/** One line of the studio's audit log (RULES 18.5). */
export const AuditEntrySchema = z.object({
  at: z.string(),
  actor: z.object({ id: z.string(), name: z.string() }),
  action: z.enum([
    'save',
    'remove',
    'discard',
    'publish',
    'rollback',
    'schedule',
    'unschedule',
    'scheduled-publish',
    'scheduled-failed',
    'preview-link',
    'revoke-link',
    'user-add',
    'user-change',
    'user-remove',
  ]),
  /** The brands the action touched (`*`: the brand registry, which is every brand's). */
  brands: z.array(z.string()),
  summary: z.string(),
  version: z.number().int().nullable().optional(),
  /** The change as a unified diff, where the action changed files. */
  diff: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;
export const AuditSchema = z.object({ entries: z.array(AuditEntrySchema) });
