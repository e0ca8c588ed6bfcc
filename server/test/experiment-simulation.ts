/**
 * A seeded A/B experiment run through the storefront's real HTTP API, and a sample-ratio check written straight
 * into the event store, for the simulation test and the events benchmark. Nothing here imports the test runner.
 *
 * Each simulated guest opens a session, asks for the home layout with its token (the server assigns the
 * `home-layout` variation by GrowthBook's hashing and records the exposure), then buys one ticket with the true
 * probability of its variation, decided by a seeded draw on its guest id: the same guests make the same choices
 * whatever order the requests are answered in.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ExperimentResultsSchema, type ExperimentResults } from '../../shared/schemas/experiment-results.js';
import { ExperimentExposureSchema } from '../../shared/schemas/layout.js';
import { EventCollector } from '../analytics/event-collector.js';
import { EventLog } from '../analytics/event-log.js';
import { ExperimentReadout, experimentDefinitions } from '../experiments/readout.js';
import { FlagService } from '../flags/flag-service.js';
import { StaticFlagSource, type FlagPayload } from '../flags/flags-file.js';
import { buyOne } from './shopper.js';
import { openMigratedPglite } from '../store/test-stores.js';

/** The experiment the home layout runs (`segments/flags.json`), its feature and its variations' ids. */
export const HOME_EXPERIMENT = 'home-layout';
export const HOME_FEATURE = 'home_layout';
export const CONTROL = '0';
export const TREATMENT = '1';

/** The simulated guests' true purchase probabilities: 4% in control, 5% with the promos layout. */
export const TRUE_RATES: Readonly<Record<string, number>> = { [CONTROL]: 0.04, [TREATMENT]: 0.05 };
/** The true relative lift of the treatment's conversion over control's: 5% / 4% − 1. */
export const TRUE_LIFT = TRUE_RATES[TREATMENT]! / TRUE_RATES[CONTROL]! - 1;

/** What the simulated browser sends as its user agent: a desktop browser, so every guest is a shopper. */
export const SIMULATED_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

const UNIT_BITS = 2 ** 48;

/** A number in [0, 1) drawn from `seed` and `key` alone: the same pair always draws the same number. */
export function seededUnit(seed: number, key: string): number {
  const digest = createHash('sha256').update(`${seed}:${key}`).digest();
  return digest.readUIntBE(0, 6) / UNIT_BITS;
}

/**
 * Guest ids for a session issuer (`SessionTokens`' `newGuestId`): version-4-shaped UUIDs drawn from `seed`, the
 * n-th call giving the same id on every run.
 */
export function seededGuestIds(seed: number): () => string {
  let n = 0;
  return () => {
    const hex = createHash('sha256').update(`guest:${seed}:${n++}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}

/** A client address per simulated guest, 10.a.b.c (sent as X-Forwarded-For; a server trusting loopback sees it). */
export function guestAddress(index: number): string {
  const n = index + 1;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** What the simulation did in one variation: guests shown it, guests who bought, and their all-in revenue. */
export interface ArmTally {
  users: number;
  purchasers: number;
  /** In cents, summed exactly. */
  revenueCents: number;
}

export interface SimulationTally {
  guests: number;
  /** Variation id → what its guests did. */
  arms: Record<string, ArmTally>;
  startedAt: Date;
  finishedAt: Date;
}

export interface SimulationOptions {
  /** The server's origin, e.g. `http://127.0.0.1:3000`. */
  base: string;
  guests: number;
  seed: number;
  /** Guests in flight at once. */
  concurrency: number;
  /** A listing with a ticket left, a different one each call (`listingSupply`). */
  nextListing: () => number;
  rates?: Readonly<Record<string, number>>;
  /** Called after each guest with how many are done. */
  progress?: (done: number) => void;
}

const SessionSchema = z.object({ sessionToken: z.string() });
const LayoutExperimentsSchema = z.object({ experiments: z.array(ExperimentExposureSchema) });

async function answer(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as unknown;
}

/** The guest id (the `sub` claim) of a session token. */
export function guestOfToken(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
  if (typeof payload.sub !== 'string') throw new Error('a session token without a guest id');
  return payload.sub;
}

/** One guest: a session, the home layout (the exposure), and a purchase with its variation's probability. */
async function oneGuest(options: SimulationOptions, index: number, tally: SimulationTally): Promise<void> {
  const { base, seed } = options;
  const rates = options.rates ?? TRUE_RATES;
  const client = { 'user-agent': SIMULATED_USER_AGENT, 'x-forwarded-for': guestAddress(index) };
  const session = SessionSchema.parse(
    await answer(
      await fetch(`${base}/api/customers/session`, { method: 'POST', headers: client }),
      'POST /api/customers/session',
    ),
  );
  const auth = `Bearer ${session.sessionToken}`;
  const guestId = guestOfToken(session.sessionToken);
  const layout = LayoutExperimentsSchema.parse(
    await answer(
      await fetch(`${base}/api/layout/home`, {
        headers: { ...client, authorization: auth, 'x-page-view': `sim-${seed}-${index}`.padEnd(8, '0') },
      }),
      'GET /api/layout/home',
    ),
  );
  const exposure = layout.experiments.find((e) => e.key === HOME_EXPERIMENT);
  if (!exposure) throw new Error(`the home layout put guest ${guestId} in no ${HOME_EXPERIMENT} variation`);
  const arm = (tally.arms[exposure.variationId] ??= { users: 0, purchasers: 0, revenueCents: 0 });
  arm.users++;
  const rate = rates[exposure.variationId];
  if (rate === undefined) throw new Error(`no true rate for variation "${exposure.variationId}"`);
  if (seededUnit(seed, `buys:${guestId}`) >= rate) return;
  const { order } = await buyOne(base, auth, options.nextListing(), { headers: client });
  arm.purchasers++;
  arm.revenueCents += Math.round(order.totalPrice.value * 100);
}

/** Runs `guests` simulated guests through the API, `concurrency` at a time; throws on the first failure. */
export async function simulateExperiment(options: SimulationOptions): Promise<SimulationTally> {
  const tally: SimulationTally = { guests: options.guests, arms: {}, startedAt: new Date(), finishedAt: new Date() };
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < options.guests) {
      await oneGuest(options, next++, tally);
      options.progress?.(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, options.guests) }, worker));
  tally.finishedAt = new Date();
  return tally;
}

/** `GET /api/studio/experiments/:key/results`, parsed. */
export async function readResults(
  base: string,
  options: { key?: string; studioKey?: string; since?: Date } = {},
): Promise<ExperimentResults> {
  const query = options.since ? `?since=${encodeURIComponent(options.since.toISOString())}` : '';
  const res = await fetch(`${base}/api/studio/experiments/${options.key ?? HOME_EXPERIMENT}/results${query}`, {
    headers: options.studioKey ? { 'x-studio-key': options.studioKey } : {},
  });
  return ExperimentResultsSchema.parse(await answer(res, 'GET /api/studio/experiments/:key/results'));
}

/** Where the readout and the simulation's own count disagree, one sentence each; empty when they agree. */
export function tallyMismatches(results: ExperimentResults, tally: SimulationTally): string[] {
  const problems: string[] = [];
  const ids = new Set([...Object.keys(tally.arms), ...results.variations.filter((v) => v.users > 0).map((v) => v.id)]);
  for (const id of ids) {
    const read = results.variations.find((v) => v.id === id);
    const did = tally.arms[id] ?? { users: 0, purchasers: 0, revenueCents: 0 };
    const users = read?.users ?? 0;
    const purchasers = read?.purchasers ?? 0;
    const revenueCents = Math.round((read?.revenue ?? 0) * 100);
    if (users !== did.users) problems.push(`variation ${id}: ${users} users read, ${did.users} exposed`);
    if (purchasers !== did.purchasers)
      problems.push(`variation ${id}: ${purchasers} purchasers read, ${did.purchasers} bought`);
    if (revenueCents !== did.revenueCents)
      problems.push(`variation ${id}: ${revenueCents} cents of revenue read, ${did.revenueCents} paid`);
  }
  return problems;
}

/** Polls the readout until it counts what the simulation did (the event log writes behind), or gives up. */
export async function resultsMatching(
  base: string,
  tally: SimulationTally,
  options: { studioKey?: string; since?: Date; timeoutMs?: number } = {},
): Promise<{ results: ExperimentResults; mismatches: string[] }> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const results = await readResults(base, options);
    const mismatches = tallyMismatches(results, tally);
    if (mismatches.length === 0 || Date.now() > deadline) return { results, mismatches };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether each true value lies in the readout's 95% interval: per variation's rate, and the treatment's lift. */
export function coverage(results: ExperimentResults, rates: Readonly<Record<string, number>> = TRUE_RATES) {
  const rate = Object.fromEntries(
    results.variations.map((v) => {
      const truth = rates[v.id];
      const { low, high } = v.conversionInterval;
      return [v.id, truth !== undefined && low !== null && high !== null && low <= truth && truth <= high];
    }),
  );
  const lift = results.variations.find((v) => v.id === TREATMENT)?.lift;
  const trueLift = rates[TREATMENT]! / rates[CONTROL]! - 1;
  return { rate, lift: lift !== null && lift !== undefined && lift.low <= trueLift && trueLift <= lift.high };
}

/** How many synthetic exposures each variation was assigned, and how many reached the store. */
export interface SyntheticExposures {
  assigned: Record<string, number>;
  recorded: Record<string, number>;
}

/**
 * Writes one exposure for each of `guests` synthetic guests straight into the event log (no HTTP), each assigned
 * by the flags' GrowthBook hashing of a seeded guest id, as the server assigns one. The exposure reaches the log
 * through the evaluation's tracking callback, which fails for a share `lost[variation]` of each variation's
 * guests (a browser that leaves before the callback fires, a blocked request): how a sample ratio mismatch arises.
 */
export function recordSyntheticExposures(options: {
  collector: EventCollector;
  flags: FlagService;
  guests: number;
  seed: number;
  lost?: Readonly<Record<string, number>>;
}): SyntheticExposures {
  const { collector, flags, seed } = options;
  const ids = seededGuestIds(seed);
  const assigned: Record<string, number> = {};
  const recorded: Record<string, number> = {};
  for (let i = 0; i < options.guests; i++) {
    const guest = ids();
    const evaluation = flags.evaluate({ id: guest, brand: 'base', deviceType: 'desktop', url: '/' });
    const layout = evaluation.value(HOME_FEATURE, 'base');
    const exposures = evaluation.exposures.filter((e) => e.key === HOME_EXPERIMENT);
    for (const e of exposures) assigned[e.variationId] = (assigned[e.variationId] ?? 0) + 1;
    const fired = exposures.filter((e) => seededUnit(seed, `lost:${guest}`) >= (options.lost?.[e.variationId] ?? 0));
    for (const e of fired) recorded[e.variationId] = (recorded[e.variationId] ?? 0) + 1;
    collector.exposures(
      { guest, brand: 'base', device: 'desktop' },
      { page: '/', pageView: `srm-${seed}-${i}`, variation: layout, segmentVersion: null },
      fired,
    );
  }
  return { assigned, recorded };
}

/**
 * A fresh in-memory store holding `guests` synthetic exposures (`recordSyntheticExposures`), and its readout of
 * the home-layout experiment under `flags`' weights.
 */
export async function syntheticReadout(options: {
  flags: FlagPayload;
  guests: number;
  seed: number;
  lost?: Readonly<Record<string, number>>;
}): Promise<{ written: SyntheticExposures; results: ExperimentResults }> {
  const sql = await openMigratedPglite();
  try {
    const log = new EventLog(sql);
    const written = recordSyntheticExposures({
      collector: new EventCollector(log),
      flags: new FlagService(new StaticFlagSource(options.flags)),
      guests: options.guests,
      seed: options.seed,
      ...(options.lost ? { lost: options.lost } : {}),
    });
    await log.close();
    const { queued, dropped } = log.stats();
    if (queued > 0 || dropped > 0) throw new Error(`${queued + dropped} synthetic exposures were not written`);
    const readout = new ExperimentReadout(sql, () => experimentDefinitions(options.flags.features));
    return { written, results: await readout.results(HOME_EXPERIMENT) };
  } finally {
    await sql.close();
  }
}
