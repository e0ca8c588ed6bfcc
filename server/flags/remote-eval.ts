import type { Experiment, Result, VariationMeta } from '@growthbook/growthbook';

/**
 * What the SDK's tracking callback is given for a remotely evaluated experiment: the experiment's key and name,
 * the assigned variation (at its index; the others `null`, their meta `{}`), and the assignment itself. Nothing
 * that decides an assignment (weights, coverage, ranges, conditions, seeds, namespaces, other variations, the
 * guest's hash bucket) leaves the server: from these a browser learns its own variation and nothing more.
 */
export interface TrackedExperiment {
  key: string;
  name?: string;
  variations: unknown[];
  meta?: Partial<VariationMeta>[];
}

export type TrackedResult = Pick<
  Result<unknown>,
  'value' | 'variationId' | 'key' | 'inExperiment' | 'hashAttribute' | 'hashValue' | 'featureId'
> &
  Partial<Pick<Result<unknown>, 'name' | 'hashUsed' | 'stickyBucketUsed' | 'passthrough'>>;

export interface Track {
  experiment: TrackedExperiment;
  result: TrackedResult;
}

/**
 * A feature as GrowthBook's remote evaluation answers it: its value for this user, and, when the evaluation
 * put the user in experiments, one rule forcing that value whose `tracks` make the SDK fire its tracking
 * callback for each of them when the feature is read (as GrowthBook's proxy answers).
 */
export interface RemoteFeature {
  defaultValue: unknown;
  rules?: [{ force: unknown; tracks: Track[] }];
}

export interface RemoteEvaluation {
  features: Record<string, RemoteFeature>;
  dateUpdated: string;
}

/** One exposure the SDK reported while evaluating a feature, kept to what its tracking callback needs. */
export function trackOf(experiment: Experiment<unknown>, result: Result<unknown>): Track {
  const assigned = result.variationId;
  const tracked: TrackedExperiment = {
    key: experiment.key,
    variations: experiment.variations.map((value, i) => (i === assigned ? value : null)),
  };
  if (experiment.name !== undefined) tracked.name = experiment.name;
  if (experiment.meta) {
    tracked.meta = experiment.meta.map((meta, i) => {
      if (i !== assigned) return {};
      const kept: Partial<VariationMeta> = {};
      if (meta.key !== undefined) kept.key = meta.key;
      if (meta.name !== undefined) kept.name = meta.name;
      return kept;
    });
  }
  const kept: TrackedResult = {
    value: result.value,
    variationId: result.variationId,
    key: result.key,
    inExperiment: result.inExperiment,
    hashAttribute: result.hashAttribute,
    hashValue: result.hashValue,
    featureId: result.featureId,
  };
  if (result.name !== undefined) kept.name = result.name;
  if (result.hashUsed !== undefined) kept.hashUsed = result.hashUsed;
  if (result.stickyBucketUsed !== undefined) kept.stickyBucketUsed = result.stickyBucketUsed;
  if (result.passthrough !== undefined) kept.passthrough = result.passthrough;
  return { experiment: tracked, result: kept };
}

/** A feature's remote answer: its value, with a forcing rule carrying the exposures when there were any. */
export function remoteFeature(value: unknown, tracks: Track[]): RemoteFeature {
  return tracks.length > 0 ? { defaultValue: value, rules: [{ force: value, tracks }] } : { defaultValue: value };
}
