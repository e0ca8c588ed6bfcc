import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chiSquareSurvival,
  conversionMoments,
  logGamma,
  proportion,
  regularizedGammaQ,
  relativeLift,
  revenuePerUserMoments,
  srm,
  SRM_P_VALUE_THRESHOLD,
  Z_95,
} from './statistics.js';

// Expected values computed independently with SciPy 1.17 (scipy.stats.chi2.sf, scipy.special.gammaincc,
// scipy.special.gammaln, scipy.stats.norm) and NumPy.

function expectRelativelyClose(actual: number, expected: number, tolerance = 1e-9): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance * Math.abs(expected));
}

describe('chiSquareSurvival', () => {
  it.each([
    [3.841459, 1, 0.04999999465319563],
    [10.828, 1, 0.0009997657195830916],
    [5.991465, 2, 0.04999998867770084],
    [7.814728, 3, 0.049999997831966146],
    [0.5, 4, 0.9735009788392561],
    [30, 20, 0.06985366069940986],
    [2.5, 0.5, 0.04724670114390913],
    [100, 1, 1.5239706048320995e-23],
    [200, 3, 4.218541107192018e-43],
  ])('χ² = %f with %f degrees of freedom has survival %e', (x, df, expected) => {
    expectRelativelyClose(chiSquareSurvival(x, df), expected);
  });

  it('is 1 at 0, keeps a survival near the smallest double, and is 0 below it', () => {
    expect(chiSquareSurvival(0, 3)).toBe(1);
    // Q(5, x) = e^−x (1 + x + x²/2 + x³/6 + x⁴/24); at x = 750 about 2.5e-316, which SciPy rounds to 0.
    const x = 750;
    const closedForm = Math.exp(Math.log(1 + x + x ** 2 / 2 + x ** 3 / 6 + x ** 4 / 24) - x);
    expectRelativelyClose(chiSquareSurvival(2 * x, 10), closedForm, 1e-6);
    expect(chiSquareSurvival(2000, 10)).toBe(0);
  });

  it('matches the closed forms for 2 and 4 degrees of freedom on both sides of the series/fraction switch', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 600, noNaN: true }), (x) => {
        expectRelativelyClose(chiSquareSurvival(x, 2), Math.exp(-x / 2), 1e-12);
        expectRelativelyClose(chiSquareSurvival(x, 4), Math.exp(-x / 2) * (1 + x / 2), 1e-12);
      }),
    );
  });

  it('stays in [0, 1] and never rises as the statistic grows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 400, noNaN: true }),
        fc.double({ min: 0, max: 400, noNaN: true }),
        (df, a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const pLo = chiSquareSurvival(lo, df);
          const pHi = chiSquareSurvival(hi, df);
          expect(pLo).toBeGreaterThanOrEqual(0);
          expect(pLo).toBeLessThanOrEqual(1);
          expect(pHi).toBeGreaterThanOrEqual(0);
          expect(pHi).toBeLessThanOrEqual(pLo + 1e-15);
        },
      ),
    );
  });

  it('refuses degrees of freedom that are not positive', () => {
    expect(() => chiSquareSurvival(1, 0)).toThrow(RangeError);
  });
});

describe('regularizedGammaQ and logGamma', () => {
  it.each([
    [0.5, 0.1, 0.6547208460185768],
    [3, 2.5, 0.5438131158833297],
    [10, 30, 7.121750862815593e-6],
    [50, 45, 0.7531979655998298],
    [2.5, 0.001, 0.9999999904914654],
  ])('Q(%f, %f) is %e', (s, x, expected) => {
    expectRelativelyClose(regularizedGammaQ(s, x), expected);
  });

  it.each([
    [0.5, 0.5723649429247],
    [1, 0],
    [3.7, 1.428072326665388],
    [100, 359.1342053695754],
    [0.1, 2.252712651734206],
  ])('ln Γ(%f) is %f', (s, expected) => {
    expect(logGamma(s)).toBeCloseTo(expected, 12);
  });
});

describe('srm', () => {
  it('flags 10000 against 9500 guests on a 50/50 split', () => {
    const result = srm([10000, 9500], [0.5, 0.5]);
    expectRelativelyClose(result.chiSquare, 12.820512820512821);
    expectRelativelyClose(result.pValue, 0.0003428397416111479);
    expect(result.flagged).toBe(true);
  });

  it('does not flag 10000 against 9950 guests on a 50/50 split', () => {
    const result = srm([10000, 9950], [50, 50]);
    expectRelativelyClose(result.chiSquare, 0.12531328320802004);
    expectRelativelyClose(result.pValue, 0.7233417590035841);
    expect(result.flagged).toBe(false);
  });

  it('tests three variations against unequal weights with two degrees of freedom', () => {
    const close = srm([3000, 2000, 5100], [3, 2, 5]);
    expectRelativelyClose(close.chiSquare, 0.9900990099009901);
    expectRelativelyClose(close.pValue, 0.609540731265658);
    expect(close.flagged).toBe(false);
    const off = srm([3000, 2400, 4600], [0.3, 0.2, 0.5]);
    expectRelativelyClose(off.chiSquare, 112);
    expectRelativelyClose(off.pValue, 4.780892883885472e-25, 1e-8);
    expect(off.flagged).toBe(true);
  });

  it('answers p-value 1, unflagged, when nobody was exposed', () => {
    expect(srm([0, 0], [0.5, 0.5])).toEqual({ chiSquare: 0, pValue: 1, flagged: false });
  });

  it('refuses weights that do not match the variations, are negative or add up to nothing', () => {
    expect(() => srm([10, 10], [1])).toThrow(RangeError);
    expect(() => srm([10, 10], [1, -1])).toThrow(RangeError);
    expect(() => srm([10, 10], [0, 0])).toThrow(RangeError);
    expect(() => srm([10, 10], [1, Number.NaN])).toThrow(RangeError);
    expect(() => srm([10, -1], [1, 1])).toThrow(RangeError);
    expect(() => srm([10], [1])).toThrow(RangeError);
  });

  it('gives a p-value in [0, 1], flags exactly below the threshold, and ignores the weights’ scale', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 100 })), {
          minLength: 2,
          maxLength: 6,
        }),
        fc.double({ min: 0.01, max: 1000, noNaN: true }),
        (arms, scale) => {
          const observed = arms.map(([o]) => o);
          const weights = arms.map(([, w]) => w);
          const result = srm(observed, weights);
          expect(result.pValue).toBeGreaterThanOrEqual(0);
          expect(result.pValue).toBeLessThanOrEqual(1);
          expect(result.flagged).toBe(result.pValue < SRM_P_VALUE_THRESHOLD);
          const scaled = srm(
            observed,
            weights.map((w) => w * scale),
          );
          expect(scaled.chiSquare).toBeCloseTo(result.chiSquare, 6);
        },
      ),
    );
  });

  it('finds no mismatch when the guests split exactly as the weights say', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 2, maxLength: 6 }), (weights) => {
        const result = srm(
          weights.map((w) => w * 1000),
          weights,
        );
        expect(result.chiSquare).toBeCloseTo(0, 9);
        expect(result.pValue).toBeCloseTo(1, 9);
      }),
    );
  });
});

describe('proportion', () => {
  it('gives 400 of 10000 a 4% rate with the Wald interval', () => {
    const result = proportion(400, 10000);
    expect(result.rate).toBe(0.04);
    expectRelativelyClose(result.low ?? Number.NaN, 0.03615927062862057);
    expectRelativelyClose(result.high ?? Number.NaN, 0.04384072937137943);
  });

  it('answers a 0 rate with no interval when nobody was exposed', () => {
    expect(proportion(0, 0)).toEqual({ rate: 0, low: null, high: null });
  });

  it('keeps the interval inside [0, 1] around the rate', () => {
    expect(proportion(0, 50)).toEqual({ rate: 0, low: 0, high: 0 });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, share) => {
        const { rate, low, high } = proportion(Math.round(share * n), n);
        expect(low).not.toBeNull();
        expect(0).toBeLessThanOrEqual(low ?? -1);
        expect(low ?? 2).toBeLessThanOrEqual(rate);
        expect(rate).toBeLessThanOrEqual(high ?? -1);
        expect(high ?? 2).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('refuses more successes than guests and negative counts', () => {
    expect(() => proportion(11, 10)).toThrow(RangeError);
    expect(() => proportion(-1, 10)).toThrow(RangeError);
  });
});

describe('relativeLift', () => {
  it('puts conversion 5% over 4% at +25% with the delta-method interval, 10000 guests each', () => {
    const result = relativeLift(conversionMoments(400, 10000), conversionMoments(500, 10000));
    expect(result).not.toBeNull();
    expectRelativelyClose(result?.lift ?? Number.NaN, 0.25, 1e-12);
    expectRelativelyClose(result?.standardError ?? Number.NaN, 0.08196798155377501);
    expectRelativelyClose(result?.low ?? Number.NaN, 0.08934570700193692);
    expectRelativelyClose(result?.high ?? Number.NaN, 0.4106542929980631);
    expectRelativelyClose(result?.pValue ?? Number.NaN, 0.002288631539251964, 1e-7);
  });

  it('computes revenue per guest from the arm sums the same as from each guest’s revenue', () => {
    const controlRevenue = [0, 0, 0, 120, 0, 45.5, 0, 0, 300, 0, 0, 80, 0, 0, 0, 0, 210, 0, 0, 0];
    const treatmentRevenue = [0, 150, 0, 0, 95, 0, 0, 0, 260, 0, 40, 0, 0, 0, 175, 0, 0, 0, 0, 310];
    const fromRaw = (values: number[]) => {
      const mean = values.reduce((s, v) => s + v, 0) / values.length;
      const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1);
      return { n: values.length, mean, variance };
    };
    const fromSums = (values: number[]) =>
      revenuePerUserMoments(
        values.length,
        values.reduce((s, v) => s + v, 0),
        values.reduce((s, v) => s + v * v, 0),
      );

    const control = fromSums(controlRevenue);
    const treatment = fromSums(treatmentRevenue);
    for (const [sums, raw] of [
      [control, fromRaw(controlRevenue)],
      [treatment, fromRaw(treatmentRevenue)],
    ] as const) {
      expect(sums.n).toBe(raw.n);
      expectRelativelyClose(sums.mean, raw.mean, 1e-12);
      expectRelativelyClose(sums.variance, raw.variance, 1e-12);
    }
    expectRelativelyClose(control.variance, 6759.538815789474, 1e-12);

    const result = relativeLift(control, treatment);
    expect(result).not.toBeNull();
    expectRelativelyClose(result?.lift ?? Number.NaN, 0.3633355393778954);
    expectRelativelyClose(result?.standardError ?? Number.NaN, 0.8728524174435486);
    expectRelativelyClose(result?.low ?? Number.NaN, -1.3474237761244319, 1e-7);
    expectRelativelyClose(result?.high ?? Number.NaN, 2.0740948548802227, 1e-7);
    expectRelativelyClose(result?.pValue ?? Number.NaN, 0.6772180892057826, 1e-7);
  });

  it('has no lift when control converts nobody, an arm has under two guests or no variance', () => {
    expect(relativeLift(conversionMoments(0, 1000), conversionMoments(10, 1000))).toBeNull();
    expect(relativeLift({ n: 1, mean: 3, variance: 1 }, { n: 100, mean: 4, variance: 1 })).toBeNull();
    expect(relativeLift({ n: 100, mean: 3, variance: 1 }, { n: 1, mean: 4, variance: 1 })).toBeNull();
    expect(relativeLift(conversionMoments(10, 1000), conversionMoments(0, 1000))).toBeNull();
    expect(relativeLift(revenuePerUserMoments(5, 50, 500), revenuePerUserMoments(5, 60, 1000))).toBeNull();
  });

  it('refuses a negative variance or a count that is not a number', () => {
    expect(() => relativeLift({ n: 10, mean: 1, variance: -1 }, { n: 10, mean: 1, variance: 1 })).toThrow(RangeError);
    expect(() => relativeLift({ n: Number.NaN, mean: 1, variance: 1 }, { n: 10, mean: 1, variance: 1 })).toThrow(
      RangeError,
    );
  });

  it('centres its interval on the lift and signs the lift by which arm is higher', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 100_000 }),
        fc.integer({ min: 100, max: 100_000 }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        fc.double({ min: 0.01, max: 0.99, noNaN: true }),
        (nc, nt, pc, pt) => {
          const result = relativeLift(
            conversionMoments(Math.round(pc * nc), nc),
            conversionMoments(Math.round(pt * nt), nt),
          );
          if (result === null) return;
          expect(result.low).toBeLessThan(result.lift);
          expect(result.high).toBeGreaterThan(result.lift);
          expect(result.lift - result.low).toBeCloseTo(result.high - result.lift, 9);
          expect(result.high - result.lift).toBeCloseTo(Z_95 * result.standardError, 12);
          expect(result.pValue).toBeGreaterThanOrEqual(0);
          expect(result.pValue).toBeLessThanOrEqual(1);
          expect(Math.sign(result.lift)).toBe(Math.sign(Math.round(pt * nt) / nt - Math.round(pc * nc) / nc));
        },
      ),
    );
  });

  it('covers the true lift in about 95% of 400 simulated experiments', () => {
    // mulberry32: a small seeded generator, so the run is the same every time.
    let seed = 20240601;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const conversions = (n: number, p: number) => {
      let count = 0;
      for (let i = 0; i < n; i++) if (random() < p) count++;
      return count;
    };
    const guests = 2000;
    const controlRate = 0.1;
    const treatmentRate = 0.12;
    const trueLift = treatmentRate / controlRate - 1;
    const experiments = 400;
    let covered = 0;
    for (let e = 0; e < experiments; e++) {
      const result = relativeLift(
        conversionMoments(conversions(guests, controlRate), guests),
        conversionMoments(conversions(guests, treatmentRate), guests),
      );
      if (result && result.low <= trueLift && trueLift <= result.high) covered++;
    }
    const coverage = covered / experiments;
    expect(coverage).toBeGreaterThanOrEqual(0.9);
    expect(coverage).toBeLessThanOrEqual(0.99);
  });
});
