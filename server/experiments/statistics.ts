// The statistics of an experiment readout: a rate per variation, the relative lift of a variation over control
// and the sample-ratio-mismatch check. Pure functions, no I/O.
//
// They follow GrowthBook's frequentist engine (gbstats, growthbook/growthbook at 8f1db44,
// packages/stats/gbstats):
// - models/statistics.py: a proportion's variance is p(1 − p) (divides by n); a mean's variance is
//   (Σx² − (Σx)²/n) / (n − 1) (divides by n − 1). conversionMoments and revenuePerUserMoments do the same.
// - utils.py frequentist_diff / frequentist_variance / variance_of_ratios (covariance 0 between arms), used by
//   models/tests.py EffectMoments: lift = mt/mc − 1, Var = vt/(nt·mc²) + vc·mt²/(nc·mc⁴); no result when
//   control's mean is 0 or either arm's variance is not positive.
// - utils.py check_srm: Pearson's chi-square against the normalised weights, arms of weight 0 left out of the
//   sum, k − 1 degrees of freedom; no users → p-value 1. The 0.001 threshold is DEFAULT_SRM_THRESHOLD in
//   packages/shared/src/constants.ts.
// One departure: gbstats' TwoSidedTTest takes its quantile and p-value from Student's t with Welch–Satterthwaite
// degrees of freedom; we use the normal distribution (z = 1.959964). With the thousands of guests per arm a
// readout needs, the two differ in the fourth significant figure.

/** Two-sided confidence of every interval here. */
export const CONFIDENCE_LEVEL = 0.95;
/** The standard normal quantile at 1 − (1 − CONFIDENCE_LEVEL)/2 = 0.975. */
export const Z_95 = 1.959964;
/** A split whose chi-square p-value is below this is flagged as a sample ratio mismatch. */
export const SRM_P_VALUE_THRESHOLD = 0.001;

/** One arm's per-user metric: guests, the metric's mean over them and its variance. */
export interface ArmMoments {
  n: number;
  mean: number;
  variance: number;
}

/** A rate with its interval; the interval is null when nobody was exposed. */
export interface RateEstimate {
  rate: number;
  low: number | null;
  high: number | null;
}

export interface LiftEstimate {
  /** treatment mean / control mean − 1 */
  lift: number;
  low: number;
  high: number;
  standardError: number;
  /** Two-sided, against no lift, from the normal distribution. */
  pValue: number;
}

export interface SrmResult {
  chiSquare: number;
  pValue: number;
  flagged: boolean;
}

function requireCount(value: number, name: string): void {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a finite number ≥ 0, got ${value}`);
}

function requireFinite(value: number, name: string): void {
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be a finite number, got ${value}`);
}

/**
 * The share of `n` guests who succeeded, with the normal (Wald) interval rate ± z·√(rate(1 − rate)/n), the
 * interval gbstats draws around any mean. It is cut to [0, 1], where a rate lives. With n = 0 the rate is 0 and
 * the interval null: nothing was measured.
 */
export function proportion(successes: number, n: number): RateEstimate {
  requireCount(successes, 'successes');
  requireCount(n, 'n');
  if (successes > n) throw new RangeError(`successes (${successes}) cannot exceed n (${n})`);
  if (n === 0) return { rate: 0, low: null, high: null };
  const rate = successes / n;
  const halfWidth = Z_95 * Math.sqrt((rate * (1 - rate)) / n);
  return { rate, low: Math.max(0, rate - halfWidth), high: Math.min(1, rate + halfWidth) };
}

/** A conversion metric per guest is 0 or 1: mean p, variance p(1 − p). */
export function conversionMoments(purchasers: number, users: number): ArmMoments {
  requireCount(purchasers, 'purchasers');
  requireCount(users, 'users');
  if (purchasers > users) throw new RangeError(`purchasers (${purchasers}) cannot exceed users (${users})`);
  const mean = users === 0 ? 0 : purchasers / users;
  return { n: users, mean, variance: mean * (1 - mean) };
}

/**
 * Revenue per guest from the arm's sums: mean Σr/n and the sample variance (Σr² − (Σr)²/n)/(n − 1), 0 below two
 * guests. Rounding can leave a constant metric's variance a hair below 0; it is read as 0.
 */
export function revenuePerUserMoments(users: number, revenue: number, sumSquares: number): ArmMoments {
  requireCount(users, 'users');
  requireFinite(revenue, 'revenue');
  requireCount(sumSquares, 'sumSquares');
  const mean = users === 0 ? 0 : revenue / users;
  const variance = users < 2 ? 0 : Math.max(0, (sumSquares - (revenue * revenue) / users) / (users - 1));
  return { n: users, mean, variance };
}

function requireMoments(arm: ArmMoments, name: string): void {
  requireCount(arm.n, `${name}.n`);
  requireFinite(arm.mean, `${name}.mean`);
  requireCount(arm.variance, `${name}.variance`);
}

/**
 * The relative lift of treatment over control with its delta-method interval and p-value. Null when there is no
 * lift to speak of: control's mean is 0, an arm has fewer than two guests, or an arm's variance is 0.
 */
export function relativeLift(control: ArmMoments, treatment: ArmMoments): LiftEstimate | null {
  requireMoments(control, 'control');
  requireMoments(treatment, 'treatment');
  if (control.n < 2 || treatment.n < 2 || control.mean === 0) return null;
  if (control.variance <= 0 || treatment.variance <= 0) return null;
  const mc = control.mean;
  const mt = treatment.mean;
  const lift = mt / mc - 1;
  const variance = treatment.variance / (treatment.n * mc * mc) + (control.variance * mt * mt) / (control.n * mc ** 4);
  const standardError = Math.sqrt(variance);
  const halfWidth = Z_95 * standardError;
  const z = lift / standardError;
  // A two-sided normal p-value is the chi-square (1 degree of freedom) survival of z².
  return { lift, low: lift - halfWidth, high: lift + halfWidth, standardError, pValue: chiSquareSurvival(z * z, 1) };
}

/**
 * Sample ratio mismatch: Pearson's chi-square of the observed guests per variation against the configured
 * weights (normalised), with k − 1 degrees of freedom. Flagged when its p-value is below SRM_P_VALUE_THRESHOLD.
 */
export function srm(observed: readonly number[], weights: readonly number[]): SrmResult {
  if (observed.length < 2) throw new RangeError(`a split needs at least two variations, got ${observed.length}`);
  if (weights.length !== observed.length) {
    throw new RangeError(`there are ${weights.length} weights for ${observed.length} variations`);
  }
  observed.forEach((o, i) => requireCount(o, `observed[${i}]`));
  weights.forEach((w, i) => requireCount(w, `weights[${i}]`));
  const totalWeight = weights.reduce((sum, w) => sum + w, 0);
  if (!(totalWeight > 0)) throw new RangeError('the weights must add up to more than 0');
  const total = observed.reduce((sum, o) => sum + o, 0);
  if (total === 0) return { chiSquare: 0, pValue: 1, flagged: false };

  let chiSquare = 0;
  observed.forEach((o, i) => {
    const w = weights[i] ?? 0;
    if (w === 0) return;
    const expected = (w / totalWeight) * total;
    chiSquare += ((o - expected) * (o - expected)) / expected;
  });
  const pValue = chiSquareSurvival(chiSquare, observed.length - 1);
  return { chiSquare, pValue, flagged: pValue < SRM_P_VALUE_THRESHOLD };
}

/** P(X ≥ x) for X chi-square distributed with `df` degrees of freedom. */
export function chiSquareSurvival(x: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
  if (Number.isNaN(x)) throw new RangeError('the chi-square statistic is not a number');
  if (x <= 0) return 1;
  return regularizedGammaQ(df / 2, x / 2);
}

// Lanczos approximation (g = 7, nine terms), relative error about 1e-15 for s > 0.
const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(s) for s > 0. */
export function logGamma(s: number): number {
  if (s < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * s)) - logGamma(1 - s);
  const z = s - 1;
  let sum = LANCZOS[0] ?? 1;
  for (let i = 1; i < LANCZOS.length; i++) sum += (LANCZOS[i] ?? 0) / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const GAMMA_EPSILON = 1e-15;
const GAMMA_MAX_ITERATIONS = 10_000;
// Stands in for 0 in the continued fraction's denominators (modified Lentz).
const TINY = 1e-300;

/**
 * The regularised upper incomplete gamma function Q(s, x) = Γ(s, x)/Γ(s), for s > 0 and x ≥ 0: by the series of
 * P(s, x) when x < s + 1 (Q = 1 − P), by Legendre's continued fraction otherwise, where it converges fast and
 * keeps a tiny Q's relative precision.
 */
export function regularizedGammaQ(s: number, x: number): number {
  if (!(s > 0)) throw new RangeError(`s must be > 0, got ${s}`);
  if (!(x >= 0)) throw new RangeError(`x must be ≥ 0, got ${x}`);
  if (x === 0) return 1;
  if (x === Infinity) return 0;
  const logPrefix = s * Math.log(x) - x - logGamma(s);
  return x < s + 1 ? 1 - lowerSeries(s, x, logPrefix) : upperContinuedFraction(s, x, logPrefix);
}

function lowerSeries(s: number, x: number, logPrefix: number): number {
  let a = s;
  let term = 1 / s;
  let sum = term;
  for (let i = 0; i < GAMMA_MAX_ITERATIONS; i++) {
    a += 1;
    term *= x / a;
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * GAMMA_EPSILON) break;
  }
  return Math.min(1, sum * Math.exp(logPrefix));
}

function upperContinuedFraction(s: number, x: number, logPrefix: number): number {
  let b = x + 1 - s;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= GAMMA_MAX_ITERATIONS; i++) {
    const an = -i * (i - s);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < GAMMA_EPSILON) break;
  }
  return Math.exp(logPrefix) * h;
}
