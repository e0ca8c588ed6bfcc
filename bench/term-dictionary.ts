/**
 * Every indexed word of a collection with the number of documents it occurs in, sorted so the words starting
 * with a prefix are one contiguous range.
 */
export class TermDictionary {
  private terms: string[] = [];
  private frequency: number[] = [];
  private readonly counts = new Map<string, number>();

  /** Counts each distinct word of one document once. */
  addDocument(words: Iterable<string>): void {
    for (const w of new Set(words)) this.counts.set(w, (this.counts.get(w) ?? 0) + 1);
  }

  /** Freezes the counts into the sorted arrays lookups use. */
  seal(): void {
    this.terms = [...this.counts.keys()].sort();
    this.frequency = this.terms.map((t) => this.counts.get(t)!);
    this.counts.clear();
  }

  /**
   * Up to `max` words starting with `prefix`, most frequent first (ties alphabetical); the prefix itself comes
   * first when it is a word, so a complete word is never crowded out by longer ones.
   */
  expand(prefix: string, max: number): string[] {
    let lo = 0;
    let hi = this.terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.terms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const found: { term: string; df: number }[] = [];
    for (let i = lo; i < this.terms.length && this.terms[i]!.startsWith(prefix); i++) {
      found.push({ term: this.terms[i]!, df: this.frequency[i]! });
    }
    found.sort(
      (a, b) => Number(b.term === prefix) - Number(a.term === prefix) || b.df - a.df || (a.term < b.term ? -1 : 1),
    );
    return found.slice(0, max).map((f) => f.term);
  }
}
