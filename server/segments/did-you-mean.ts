/** The allowed spelling a merchandiser probably meant, for "did you mean …?" in a problem's sentence. */

/** Edit distance, ignoring case: insertions, deletions, substitutions and swaps of neighbours ("titel"). */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d = Array.from({ length: s.length + 1 }, (_, i) =>
    Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[s.length]![t.length]!;
}

/**
 * The candidate closest to `input`, when it is close enough to be what was meant: at most one edit in four
 * characters (at least one), so "venue" suggests "venues" and "delete" suggests nothing.
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    // A candidate whose length alone puts it too far is never compared: the comparison costs length × length.
    if (Math.abs(c.length - input.length) > Math.max(1, Math.floor(Math.max(input.length, c.length) / 4))) continue;
    const d = editDistance(input, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(input.length, best.length) / 4))
    ? best
    : undefined;
}

export const didYouMean = (input: unknown, candidates: readonly string[]) => {
  const match = typeof input === 'string' ? closest(input, candidates) : undefined;
  return match === undefined || match === input ? '' : ` Did you mean "${match}"?`;
};
