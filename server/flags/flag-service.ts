import { GrowthBookClient, type UserContext } from '@growthbook/growthbook';
import type { DeviceType } from '../../shared/rules/device-type.js';
import type { RemoteEvalRequest } from '../../shared/schemas/remote-eval.js';
import { AppError } from '../http/errors.js';
import type { FlagPayload, FlagSource, FlagSourceStatus } from './flags-file.js';
import { remoteFeature, trackOf, type RemoteEvaluation, type RemoteFeature, type Track } from './remote-eval.js';

/** The attributes rules can target; `id` is the guest id, the hash attribute of the experiments. */
export interface GuestAttributes {
  id: string;
  brand: string;
  deviceType: DeviceType;
  url: string;
}

export interface Exposure {
  /** The experiment key, e.g. `home-layout`. */
  key: string;
  /** The variation's key from the rule's `meta`, else its index as a string ("0", "1"). */
  variationId: string;
}

/** A literal fallback (`'base'`) still types the value as any string. */
export type Widen<T> = T extends string ? string : T extends number ? number : T extends boolean ? boolean : T;

export interface FlagEvaluation {
  /** The feature's value for this guest; `fallback` when the feature is unknown or its value has another type. */
  value<T>(key: string, fallback: T): Widen<T>;
  /**
   * The experiments GrowthBook put this guest in while evaluating the values read so far, each once. As with
   * GrowthBook's tracking callback, a read counts even when a mismatched fallback type wins.
   */
  readonly exposures: Exposure[];
  /**
   * The same experiments as GrowthBook's force syntax (`home-layout:1,other:0`, the `gb_force` parameter's): the
   * variations this guest was put in, by index, for a page drawn for them to be drawn again without them.
   */
  readonly assignment: string;
}

/**
 * The query parameter that forces several experiments at once, `experimentKey:variationIndex[,key:index]`: an
 * alias of GrowthBook's own `?<experiment-key>=<variation index>`, one parameter per experiment.
 */
export const FORCE_PARAM = 'gb_force';

/** Experiment key → its number of variations, for every experiment rule of a flag payload. */
export type ExperimentVariations = ReadonlyMap<string, number>;

const forceError = (param: string, message: string) =>
  new AppError(400, 'invalid_request', `${param}: ${message}`, [{ path: param, message }]);

const shown = (value: unknown) =>
  typeof value === 'string'
    ? JSON.stringify(value.length > 24 ? `${value.slice(0, 24)}…` : value)
    : typeof value === 'number'
      ? String(value)
      : Array.isArray(value)
        ? `${value.length} values`
        : typeof value;

/**
 * The variation index `value` names for experiment `experimentKey` (a number, or a string of decimal digits as
 * a query spells it), or a 400 whose message and `details[0].path` name `param` (the query parameter it came
 * from; the experiment key when not given), and which names the experiment and its indexes: `home-layout:
 * experiment "home-layout" has variations 0 to 1, not "7"`. An unknown experiment is a 400 listing the known ones.
 */
export function checkVariationIndex(
  experiments: ExperimentVariations,
  experimentKey: string,
  value: unknown,
  param: string = experimentKey,
): number {
  const count = experiments.get(experimentKey);
  if (count === undefined) {
    const known = [...experiments.keys()].join(', ') || 'none';
    throw forceError(param, `no experiment ${shown(experimentKey)} (experiments: ${known})`);
  }
  const index =
    typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(index) || index < 0 || index >= count) {
    throw forceError(param, `experiment ${shown(experimentKey)} has variations 0 to ${count - 1}, not ${shown(value)}`);
  }
  return index;
}

/**
 * The variations a request's query forces, as GrowthBook's SDK reads its URL: `?<experiment-key>=<index>` for
 * each experiment the payload defines, plus the `gb_force` alias for several at once. Parameters that name no
 * experiment are ignored, as the SDK ignores them. Unlike the SDK, which silently ignores an index it cannot use,
 * an index out of range, not an integer or repeated is a 400 naming the experiment and its indexes (QA should
 * know their link is wrong); so are a malformed `gb_force`, one naming an unknown experiment, and one
 * disagreeing with the experiment's own parameter. `query` is a parsed query (Express's or `node:querystring`'s).
 */
export function forcedVariationsFromQuery(
  query: Readonly<Record<string, unknown>>,
  experiments: ExperimentVariations,
): Record<string, number> {
  const forced: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const key of experiments.keys()) {
    if (!Object.hasOwn(query, key)) continue;
    forced[key] = checkVariationIndex(experiments, key, query[key]);
  }
  for (const [key, index] of Object.entries(parseForcedVariations(query[FORCE_PARAM]))) {
    checkVariationIndex(experiments, key, index, FORCE_PARAM);
    if (key in forced && forced[key] !== index)
      throw forceError(FORCE_PARAM, `experiment "${key}" is forced to ${index} here and to ${forced[key]} by ?${key}=`);
    forced[key] = index;
  }
  return forced;
}

/**
 * Evaluates the flags for one guest with GrowthBook's SDK. One `GrowthBookClient` holds the current payload
 * (rebuilt when it changes); each `evaluate()` gets its own user context, so nothing of one guest, forced
 * variation or exposure reaches another request, and evaluation never touches the network.
 */
export class FlagService {
  private client: GrowthBookClient | null = null;
  private clientFor: FlagPayload | null = null;
  private variationCounts = new Map<string, number>();
  private readonly closing = new AbortController();

  constructor(private readonly source: FlagSource) {}

  payload(): FlagPayload {
    return this.source.payload();
  }

  subscribe(fn: (payload: FlagPayload) => void): () => void {
    return this.source.subscribe(fn);
  }

  get subscriberCount(): number {
    return this.source.subscriberCount;
  }

  status(): FlagSourceStatus {
    return this.source.status();
  }

  /** Aborted by `close()`; open event streams end on it, so they do not hold up a graceful shutdown. */
  get signal(): AbortSignal {
    return this.closing.signal;
  }

  close(): void {
    this.closing.abort();
    this.source.close();
  }

  /** The experiments of the current payload: experiment key → number of variations. */
  experiments(): ExperimentVariations {
    this.currentClient();
    return this.variationCounts;
  }

  /** `forcedVariationsFromQuery` against the current payload: the variations a request's query forces. */
  forcedVariations(query: Readonly<Record<string, unknown>>): Record<string, number> {
    return forcedVariationsFromQuery(query, this.experiments());
  }

  /** `checkVariationIndex` against the current payload: the index `value` names for the experiment, or a 400. */
  variationIndex(experimentKey: string, value: unknown, param?: string): number {
    return checkVariationIndex(this.experiments(), experimentKey, value, param);
  }

  /**
   * `forced` maps an experiment key to a variation index (from `forcedVariations`, or the studio's preview);
   * an unknown experiment or an index out of range is a 400. A forced variation is applied as GrowthBook's SDK
   * applies a query-string or forced variation (`runExperiment` steps 3 and 4): `inExperiment` true,
   * `hashUsed` false, and returned before the tracking callback, so it is no exposure and QA sessions stay out
   * of the experiment's data.
   */
  evaluate(attributes: GuestAttributes, forced: Record<string, number> = {}): FlagEvaluation {
    const client = this.currentClient();
    const forcedVariations: Record<string, number> = Object.create(null) as Record<string, number>;
    for (const [key, index] of Object.entries(forced))
      forcedVariations[key] = checkVariationIndex(this.variationCounts, key, index);

    const exposures: Exposure[] = [];
    const assigned: string[] = [];
    const user: UserContext = {
      attributes: { ...attributes },
      // Without the query string: GrowthBook's own `?experiment-key=1` is read (and checked) by
      // `forcedVariations` and comes in through `forced`, so the SDK does not read it a second, laxer way.
      url: attributes.url.split(/[?#]/, 1)[0] ?? '',
      forcedVariations,
      trackingCallback: (experiment, result) => {
        if (exposures.some((e) => e.key === experiment.key)) return;
        exposures.push({ key: experiment.key, variationId: result.key });
        assigned.push(`${experiment.key}:${result.variationId}`);
      },
    };
    const scoped = client.createScopedInstance(user);

    return {
      value<T>(key: string, fallback: T): Widen<T> {
        const value: unknown = scoped.evalFeature(key).value;
        if (value === null || value === undefined) return fallback as Widen<T>;
        if (fallback !== null && fallback !== undefined && kindOf(value) !== kindOf(fallback))
          return fallback as Widen<T>;
        return value as Widen<T>;
      },
      get exposures() {
        return exposures.map((e) => ({ ...e }));
      },
      get assignment() {
        return assigned.join(',');
      },
    };
  }

  /**
   * GrowthBook's remote evaluation (`POST /api/eval/:clientKey`): every feature of the current payload evaluated
   * for what the browser's SDK sent, with the same client, hashing and payload as `evaluate`. As with the SDK,
   * the URL's own `?<experiment-key>=<index>` and `forcedVariations` force variations (an index the experiment
   * does not have is ignored, as the SDK ignores it), a forced variation is no exposure, and `forcedFeatures`
   * set values outright. Each feature is evaluated on its own, so an experiment reached through two features
   * (one a prerequisite of the other) is tracked with each. Saved groups and rules stay here.
   */
  remoteEvaluate(request: RemoteEvalRequest): RemoteEvaluation {
    const client = this.currentClient();
    const payload = this.clientFor!;
    const forcedFeatureValues = new Map(request.forcedFeatures);
    // The SDK asks `key in forcedVariations`: without a prototype, an experiment named `toString` is not forced.
    const forcedVariations = Object.assign(Object.create(null) as Record<string, number>, request.forcedVariations);
    const features: Record<string, RemoteFeature> = Object.create(null) as Record<string, RemoteFeature>;
    for (const key of Object.keys(payload.features)) {
      const tracks: Track[] = [];
      const scoped = client.createScopedInstance({
        attributes: { ...request.attributes },
        url: request.url,
        forcedVariations,
        forcedFeatureValues,
        trackingCallback: (experiment, result) => void tracks.push(trackOf(experiment, result)),
      });
      features[key] = remoteFeature(scoped.evalFeature(key).value, tracks);
    }
    return { features, dateUpdated: payload.dateUpdated };
  }

  private currentClient(): GrowthBookClient {
    const payload = this.source.payload();
    if (!this.client || this.clientFor !== payload) {
      this.client = new GrowthBookClient().initSync({
        payload: {
          features: payload.features,
          dateUpdated: payload.dateUpdated,
          ...(payload.savedGroups ? { savedGroups: payload.savedGroups } : {}),
        },
      });
      this.variationCounts = variationCounts(payload);
      this.clientFor = payload;
    }
    return this.client;
  }
}

const kindOf = (value: unknown) => (Array.isArray(value) ? 'array' : typeof value);

/** Experiment key → number of variations; an experiment rule's key defaults to its feature's key. */
function variationCounts(payload: FlagPayload): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [feature, definition] of Object.entries(payload.features)) {
    for (const rule of definition.rules ?? []) {
      if ('force' in rule || !rule.variations) continue;
      const key = rule.key ?? feature;
      counts.set(key, Math.min(counts.get(key) ?? Infinity, rule.variations.length));
    }
  }
  return counts;
}

const FORCE_ENTRY = /^([A-Za-z0-9][A-Za-z0-9_.-]*):(0|[1-9][0-9]*)$/;

/**
 * Parses the `gb_force` query parameter, `experimentKey:variationIndex[,key:index]`. Absent gives `{}`;
 * anything else that is not exactly that format (repeated parameter, blanks, duplicates) is a 400 naming
 * `gb_force`. Whether the experiments and variations exist is checked by `forcedVariationsFromQuery`.
 */
export function parseForcedVariations(query: unknown): Record<string, number> {
  if (query === undefined) return {};
  if (typeof query !== 'string')
    throw forceError(FORCE_PARAM, 'give it once, as experimentKey:variationIndex[,key:index]');
  const out: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const part of query.split(',')) {
    const match = FORCE_ENTRY.exec(part);
    if (!match) throw forceError(FORCE_PARAM, `${shown(part)} is not experimentKey:variationIndex`);
    const [, key, digits] = match as unknown as [string, string, string];
    const index = Number(digits);
    if (!Number.isSafeInteger(index)) throw forceError(FORCE_PARAM, `${shown(part)}: the variation index is too large`);
    if (key in out) throw forceError(FORCE_PARAM, `${shown(key)} is forced twice`);
    out[key] = index;
  }
  return out;
}
