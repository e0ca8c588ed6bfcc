/**
 * RULES 21.4: set (to `1`) by `POST /api/customers/me/privacy` while the guest has opted out of selling and sharing,
 * removed when they opt back in. Readable by the page's script: nothing is collected or shared while it is there.
 * Apart from the schemas of `shared/schemas/privacy.ts`, so the first screen reads it without them.
 */
export const OPT_OUT_COOKIE = 'privacyOptOut';
/** The opt-out cookie lives a year; the stored choice lives as long as the guest. */
export const OPT_OUT_COOKIE_MAX_AGE_SECONDS = 365 * 86_400;
