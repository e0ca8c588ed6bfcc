/** Figures as the results print them. */

/** A whole number with thousands separators: `12,345`. */
export const n = (x: number) => Math.round(x).toLocaleString('en-US');
export const mib = (x: number) => (Number.isFinite(x) ? `${n(x)} MiB` : 'n/a');
/** Milliseconds: two decimals below 10, one above. */
export const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
export const yes = (ok: boolean) => (ok ? '**met**' : '**not met**');
/** A share in percent: whole percents from 10%, then enough digits that a small share is not shown as 0%. */
export const pct = (x: number) => {
  const p = 100 * x;
  return `${p >= 10 ? p.toFixed(0) : p >= 1 ? p.toFixed(1) : p.toPrecision(2)}%`;
};
