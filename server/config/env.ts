import path from 'node:path';
import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { EnvError } from './env-error.js';
import { parseFlagsConfig, type FlagsConfig } from './flags.js';
import { parseTypesenseConfig, type TypesenseConfig } from './typesense.js';
import { CACHE_BYTES } from '../cache/byte-bounded.js';
import { HEAP_GROWTH_PERCENT } from './heap.js';
import { percentDecoded } from '../../shared/rules/percent-decoding.js';

/** Every environment variable the server reads, with its default. The README lists the same table. */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** How long a graceful shutdown waits for requests in flight before it closes what is left. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Size of the catalog `npm start` generates when none exists. */
  CATALOG_EVENTS: z.coerce.number().int().min(100).max(5_000_000).default(20_000),
  CATALOG_SEED: z.coerce.number().int().min(0).default(22791),
  /** The live (published) brand registry and segment files, rewritten by each publish. */
  SEGMENTS_DIR: z.string().min(1).default('segments'),
  /** The drafts the studio edits; unset: `segment-drafts` beside SEGMENTS_DIR. */
  SEGMENT_DRAFTS_DIR: z.string().min(1).optional(),
  /** Reload flags.json when it changes on disk. */
  SEGMENTS_WATCH: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * The merchandisers' key to the studio (/studio and /api/studio), sent as `X-Studio-Key`. Set, the studio
   * asks for it everywhere; unset, the studio is open outside production and absent in production.
   */
  STUDIO_KEY: z.string().min(16, 'STUDIO_KEY must be at least 16 characters').optional(),
  /** How long one layout row may take before the page answers without it. */
  LAYOUT_ROW_DEADLINE_MS: z.coerce.number().int().min(10).max(30_000).default(800),
  /** Signs guest session tokens; at least 32 bytes. Outside production one is generated and kept in DATA_DIR. */
  SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 bytes').optional(),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** PostgreSQL for orders, holds and recent activity; unset: the embedded PGlite in DATA_DIR/db. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  /** Origins allowed to call the API from a browser on another origin, comma-separated; none by default. */
  CORS_ORIGINS: originList('CORS_ORIGINS must list http(s) origins such as https://shop.example.com, comma-separated'),
  /** Requests per minute per client (OWASP ASVS V11.1.4); raise them behind a CDN that has its own. */
  RATE_LIMIT_SESSIONS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_SUGGEST_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  RATE_LIMIT_SEARCH_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Carts created per client per minute: a shopper tries a few listings, a bot holding inventory tries hundreds. */
  RATE_LIMIT_CARTS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Listing pages (an event's listings, one listing) per client per minute. */
  RATE_LIMIT_LISTINGS_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  /** Checkout attempts per client per minute: enough to fix a typo, too few to test stolen cards. */
  RATE_LIMIT_CHECKOUT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /**
   * Event batches per client per minute (RULES 16.2): a browser sends one every few seconds while it is busy; a
   * network behind one address (an office, a campus) sends many.
   */
  RATE_LIMIT_EVENTS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /**
   * A shopper's own data (RULES 21.5): downloads, erasures and privacy choices per client per minute, counted
   * together: a shopper uses a few; each download or erasure reads or writes all of a guest's rows.
   */
  RATE_LIMIT_CUSTOMER_DATA_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** How many days first-party events are kept (RULES 16.6). */
  EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /**
   * Flag requests (`GET /api/features/:key`, `POST /api/eval/:key`) per client per minute, counted together: a
   * browser asks at each page load, navigation and flag change, a script replaying evaluations far more.
   */
  RATE_LIMIT_FLAGS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /**
   * The storefront's public origin (`https://tickets.example.com`), for every absolute address it gives: canonical
   * links, `og:url` and structured data in pages, robots.txt, the sitemaps. Required in production. Never the
   * `Host` a request names, unless that host is one of these or `PUBLIC_ORIGINS` (`server/seo/public-origins.ts`).
   */
  PUBLIC_BASE_URL: z
    .url({
      protocol: /^https?$/,
      error: 'PUBLIC_BASE_URL must be an http(s) origin such as https://tickets.example.com',
    })
    .refine(
      (u) => /^https?:\/\/[^/?#]+\/?$/i.test(u),
      'PUBLIC_BASE_URL must be an origin alone, without a path, query or fragment',
    )
    .transform((u) => new URL(u).origin)
    .optional(),
  /**
   * More public origins of the same storefront, comma-separated (`https://shop.example.com,https://tickets.example.org`:
   * brands on hosts of their own, a staging host): a request whose host (`Host`, or a trusted proxy's
   * `X-Forwarded-Host`) is one of them is given addresses on it; any other host gets `PUBLIC_BASE_URL` (or the first
   * of these). Origins, not hosts: the scheme is configured, never read off the request.
   */
  PUBLIC_ORIGINS: originList(
    'PUBLIC_ORIGINS must list http(s) origins such as https://shop.example.com, comma-separated',
    'PUBLIC_ORIGINS must list origins alone, without a path, query or fragment',
  ),
  /** Which proxies' `X-Forwarded-For` to believe: none, a hop count, or their addresses (see `parseTrustProxy`). */
  TRUST_PROXY: z.string().default('false').transform(parseTrustProxy),
  /** Serve the client's `*.map` files; off by default, so the shipped sources stay unpublished. */
  SERVE_SOURCE_MAPS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * RULES 13.12: how far the JavaScript heap may grow past what it held after its last full collection, once the
   * catalog is loaded, in percent; 0 leaves it to V8 (which lets it grow up to fourfold).
   */
  HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(300).default(HEAP_GROWTH_PERCENT),
  /** Upper bound of the search result cache. */
  SEARCH_CACHE_MB: z.coerce
    .number()
    .int()
    .min(1)
    .max(4096)
    .default(CACHE_BYTES.searchResults / 2 ** 20),
  /**
   * The operators' key to the catalog documents API at /api/admin (sent as `X-TYPESENSE-API-KEY`); unset, the
   * API does not exist. At least 16 characters: it guards every event, price and venue shoppers see.
   */
  CATALOG_ADMIN_KEY: z.string().min(16, 'CATALOG_ADMIN_KEY must be at least 16 characters').optional(),
  /**
   * The shared caches in front (Varnish with `deploy/varnish/storefront.vcl`), comma-separated
   * (`http://127.0.0.1:6081`): each catalog change purges the pages it touches there by surrogate key. Unset: none.
   */
  SHARED_CACHE_PURGE_URLS: originList(
    'SHARED_CACHE_PURGE_URLS must be http(s) addresses such as http://127.0.0.1:6081, comma-separated',
  ),
  /** Requests per minute per client to the catalog documents API (an import of thousands of lines is one). */
  RATE_LIMIT_ADMIN_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** RULES 18.4: refused studio or catalog-admin keys a client may send per minute. */
  RATE_LIMIT_KEY_FAILURES_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Signs ticket barcodes; at least 32 bytes. Unset: derived from the session secret (so every node agrees). */
  TICKET_SIGNING_SECRET: z.string().min(32, 'TICKET_SIGNING_SECRET must be at least 32 bytes').optional(),
  /**
   * RULES 19.6: no longer read. A scanner key now names the venue or the events it admits to, so one key for every
   * gate is refused at start rather than left to fail each scan.
   */
  TICKET_SCANNER_KEY: z
    .undefined({
      error:
        'TICKET_SCANNER_KEY is no longer read: each scanner key names its venue or events ' +
        '(npm run scanners -- add --venue ID, or POST /api/admin/scanners); unset it',
    })
    .optional(),
  /** Scans per scanner address per minute (a gate scans a ticket every second or two). */
  RATE_LIMIT_SCANS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /**
   * The SMTP server mail goes out through (`smtp://user:pass@host:587`, or `smtps://` for TLS from the first byte;
   * nodemailer's query options such as `?tls.rejectUnauthorized=false` pass through). Unset: each message is
   * written as an .eml file under DATA_DIR/mail.
   */
  SMTP_URL: z
    .string()
    .trim()
    .refine(
      isSmtpUrl,
      'SMTP_URL must be an smtp:// or smtps:// URL with a host, such as smtp://user:pass@mail.example.com:587',
    )
    .refine(
      credentialsReadable,
      'SMTP_URL has a % in its user name or password that starts no escape: write % as %25 (and @ as %40)',
    )
    .optional(),
  /** The sender's address (`orders@example.com` or `Name <orders@example.com>`); each mail shows its brand's name. */
  MAIL_FROM: z.string().default('Ticket Storefront <orders@localhost>').transform(parseMailFrom),
  /** The longest wait between two tries of a message the SMTP server did not take (the wait doubles from 5 s). */
  MAIL_RETRY_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /**
   * How long a node holds a message it claimed (5 minutes): a node that dies holding one leaves it to the others
   * after this. Keep it above the longest send (the SMTP timeouts, up to 100 s), or a slow send may go twice.
   */
  MAIL_LEASE_SECONDS: z.coerce
    .number({ error: 'MAIL_LEASE_SECONDS must be a whole number of seconds from 10 to 3600' })
    .int('MAIL_LEASE_SECONDS must be a whole number of seconds from 10 to 3600')
    .min(10, 'MAIL_LEASE_SECONDS must be a whole number of seconds from 10 to 3600')
    .max(3_600, 'MAIL_LEASE_SECONDS must be a whole number of seconds from 10 to 3600')
    .default(300),
});

/**
 * A comma-separated list of http(s) addresses, each kept as its origin (`https://shop.example.com`); with
 * `pathError`, an address with a path, query or fragment is refused too.
 */
function originList(error: string, pathError?: string) {
  const address = z.url({ protocol: /^https?$/, error });
  return z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        (pathError ? address.refine((u) => /^https?:\/\/[^/?#]+\/?$/i.test(u), pathError) : address).transform(
          (u) => new URL(u).origin,
        ),
      ),
    );
}

function isSmtpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Whether an SMTP URL's user name and password are percent-encoded text, as nodemailer reads them. */
function credentialsReadable(raw: string): boolean {
  if (!isSmtpUrl(raw)) return true;
  const { username, password } = new URL(raw);
  return percentDecoded(username) !== undefined && percentDecoded(password) !== undefined;
}

/** A sender: its address, and the display name it was given (each brand's name replaces it per message). */
export interface MailSender {
  name: string | null;
  address: string;
}

const EMAIL = z.email();

/** `MAIL_FROM`: `orders@example.com`, `Name <orders@example.com>` or `"Name" <orders@example.com>`. */
function parseMailFrom(raw: string, ctx: z.RefinementCtx): MailSender {
  const value = raw.trim();
  const named = /^(?:"([^"]*)"|([^<>"]*?))\s*<([^<>\s]+)>$/.exec(value);
  const name = named ? (named[1] ?? named[2] ?? '').trim() || null : null;
  const address = named ? named[3]! : value;
  // `localhost` is no public domain, but it is where the default's mail goes: the .eml files and a local server.
  if (!EMAIL.safeParse(address.replace(/@localhost$/i, '@localhost.example')).success) {
    ctx.addIssue({
      code: 'custom',
      message: `MAIL_FROM must be an email address, alone or as Name <address>; not ${JSON.stringify(raw)}`,
    });
    return z.NEVER;
  }
  return { name, address };
}

/**
 * The proxies whose `X-Forwarded-For` entries are believed, with Express's `trust proxy` meaning: `false`
 * believes none (the client is the socket's peer), a hop count believes that many proxies in front of the
 * server, a list believes the proxies at those addresses (proxy-addr's names `loopback`, `linklocal`,
 * `uniquelocal`, addresses and CIDR ranges).
 */
export type TrustProxy = false | number | readonly string[];

/** The `TRUST_PROXY` setting: `false` (default), a hop count such as `1`, or a comma-separated address list. */
function parseTrustProxy(raw: string, ctx: z.RefinementCtx): TrustProxy {
  const value = raw.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true') {
    ctx.addIssue({
      code: 'custom',
      message:
        'TRUST_PROXY=true would believe any X-Forwarded-For a client sends; give ' +
        'the number of proxies in front (e.g. 1) or their addresses (e.g. ' +
        '10.0.0.5)',
    });
    return z.NEVER;
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => {
    try {
      proxyaddr.compile(entry);
      return entry === '';
    } catch {
      return true;
    }
  });
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message:
        `TRUST_PROXY must be false, a hop count (e.g. 1) or comma-separated ` +
        `addresses, CIDR ranges or the names loopback, linklocal, uniquelocal; ` +
        `not ${bad.map((b) => JSON.stringify(b)).join(', ')}`,
    });
    return z.NEVER;
  }
  return entries;
}

export type Env = z.infer<typeof EnvSchema> & {
  dataDir: string;
  catalogDir: string;
  segmentsDir: string;
  segmentDraftsDir: string;
  /** Published segment versions without a shared store (DATA_DIR/segment-versions). */
  segmentVersionsDir: string;
  /** The studio's users, audit log, schedules and preview links without a shared store (RULES 18). */
  studioRecordsDir: string;
  /** The venue scanners' keys without a shared store (RULES 19.6). */
  scannerRecordsDir: string;
  /** Typesense settings (`TYPESENSE_*`), or null to search with the embedded engine. */
  typesense: TypesenseConfig | null;
  /** Flags: the embedded file, or a GrowthBook host (`FLAGS_*`, `GROWTHBOOK_*`). */
  flags: FlagsConfig;
};

/** Parses the environment once; throws an EnvError listing every problem, not just the first. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const result = EnvSchema.safeParse(source);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  const collect = <T>(parse: () => T): T | null => {
    try {
      return parse();
    } catch (err) {
      if (!(err instanceof EnvError)) throw err;
      problems.push(...err.problems);
      return null;
    }
  };
  const typesense = collect(() => parseTypesenseConfig(source));
  const flags = collect(() => parseFlagsConfig(source));
  // A production node names its own origin: else a crafted `Host` could become the canonical link of a page a
  // shared cache keeps for everyone.
  if (source.NODE_ENV === 'production' && source.PUBLIC_BASE_URL === undefined)
    problems.push(
      "PUBLIC_BASE_URL: required in production: the storefront's public origin (https://tickets.example.com), " +
        'for its canonical links, sitemaps and robots.txt',
    );
  if (!result.success || !flags || problems.length > 0) throw new EnvError(problems);
  const dataDir = path.resolve(result.data.DATA_DIR);
  const segmentsDir = path.resolve(result.data.SEGMENTS_DIR);
  // Beside the live folder, at the same depth, so the files' relative `$schema` links hold in drafts too.
  const segmentDraftsDir = path.resolve(
    result.data.SEGMENT_DRAFTS_DIR ?? path.join(path.dirname(segmentsDir), 'segment-drafts'),
  );
  return {
    ...result.data,
    dataDir,
    catalogDir: path.join(dataDir, 'catalog'),
    segmentsDir,
    segmentDraftsDir,
    segmentVersionsDir: path.join(dataDir, 'segment-versions'),
    studioRecordsDir: path.join(dataDir, 'studio'),
    scannerRecordsDir: path.join(dataDir, 'scanners'),
    typesense,
    flags,
  };
}

export { EnvError };
