import { GrowthBookClient, type UserContext } from '@growthbook/growthbook';
import { AppError } from '../http/errors.js';
import type { FlagPayload, FlagSource, FlagSourceStatus } from './flags-file.js';

export type DeviceType = 'mobile' | 'tablet' | 'desktop';

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
}

/** The QA query parameter that forces variations: `experimentKey:variationIndex[,key:index]`. */
export const FORCE_PARAM = 'gb_force';

const forceError = (message: string) =>
  new AppError(400, 'invalid_request', `${FORCE_PARAM}: ${message}`, [{ path: FORCE_PARAM, message }]);

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

  /**
   * `forced` maps an experiment key to a variation index (QA). Exposures follow GrowthBook's tracking
   * callback: a forced variation is not an exposure, so QA sessions stay out of the experiment's data.
   */
  evaluate(attributes: GuestAttributes, forced: Record<string, number> = {}): FlagEvaluation {
    const client = this.currentClient();
    const forcedVariations: Record<string, number> = Object.create(null) as Record<string, number>;
    for (const [key, index] of Object.entries(forced)) {
      const count = this.variationCounts.get(key);
      if (count === undefined) {
        const known = [...this.variationCounts.keys()].join(', ') || 'none';
        throw forceError(`no experiment "${key}" (experiments: ${known})`);
      }
      if (!Number.isInteger(index) || index < 0 || index >= count) {
        throw forceError(`"${key}" has variations 0 to ${count - 1}, not ${index}`);
      }
      forcedVariations[key] = index;
    }

    const exposures: Exposure[] = [];
    const user: UserContext = {
      attributes: { ...attributes },
      // Without the query string, so GrowthBook's own `?experiment-key=1` forcing stays off: gb_force,
      // validated above, is the one way to force a variation.
      url: attributes.url.split(/[?#]/, 1)[0] ?? '',
      forcedVariations,
      trackingCallback: (experiment, result) => {
        if (exposures.some((e) => e.key === experiment.key)) return;
        exposures.push({ key: experiment.key, variationId: result.key });
      },
    };
    const scoped = client.createScopedInstance(user);

    return {
      value<T>(key: string, fallback: T): Widen<T> {
        const value: unknown = scoped.evalFeature(key).value;
        if (value === null || value === undefined) return fallback as Widen<T>;
        if (fallback !== null && fallback !== undefined && kindOf(value) !== kindOf(fallback)) return fallback as Widen<T>;
        return value as Widen<T>;
      },
      get exposures() {
        return exposures.map((e) => ({ ...e }));
      },
    };
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

const TABLET = /iPad|Tablet|PlayBook|Silk|Kindle|KF[A-Z]{2,4}\b|Nexus (?:7|9|10)\b/i;
const MOBILE = /Mobi|iPhone|iPod|Android|Windows Phone|IEMobile|BlackBerry|BB10|Opera Mini|webOS/i;

/**
 * Device class from a User-Agent header (spec §9: device detection covers mobile, tablet, desktop). Android
 * without "Mobile" is a tablet, by Google's convention for the header. An iPad in desktop mode reports itself
 * as a Mac and is counted as desktop: the header alone cannot tell them apart.
 */
export function deviceTypeFromUserAgent(ua: string | undefined): DeviceType {
  if (!ua) return 'desktop';
  if (TABLET.test(ua)) return 'tablet';
  if (/Android/i.test(ua) && !/Mobile/i.test(ua)) return 'tablet';
  if (MOBILE.test(ua)) return 'mobile';
  return 'desktop';
}

const FORCE_ENTRY = /^([A-Za-z0-9][A-Za-z0-9_.-]*):(0|[1-9][0-9]*)$/;

/**
 * Parses the `gb_force` query parameter, `experimentKey:variationIndex[,key:index]`. Absent gives `{}`;
 * anything else that is not exactly that format (repeated parameter, blanks, duplicates) is a 400 naming
 * `gb_force`. Whether the experiments exist is checked by `FlagService.evaluate`.
 */
export function parseForcedVariations(query: unknown): Record<string, number> {
  if (query === undefined) return {};
  if (typeof query !== 'string') throw forceError('give it once, as experimentKey:variationIndex[,key:index]');
  const out: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const part of query.split(',')) {
    const match = FORCE_ENTRY.exec(part);
    if (!match) throw forceError(`"${part}" is not experimentKey:variationIndex`);
    const [, key, digits] = match as unknown as [string, string, string];
    const index = Number(digits);
    if (!Number.isSafeInteger(index)) throw forceError(`"${part}": the variation index is too large`);
    if (key in out) throw forceError(`"${key}" is forced twice`);
    out[key] = index;
  }
  return out;
}
