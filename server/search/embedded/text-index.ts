import SearchableMap from 'minisearch/SearchableMap';
import { MAX_PREFIX_CANDIDATES, TYPO_MIN_LENGTH_1, TYPO_MIN_LENGTH_2 } from '../../../shared/rules/constants.js';
import { packLists, SlotList, unpackLists } from './slot-list.js';
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from './snapshot.js';
import { foldText, tokenize } from './text.js';

/** A match holding at least 1/16 of the collection is put in slot order by one pass over the slots. */
const SCAN_ABOVE_SHARE = 16;
/** Texts whose words are remembered while indexing. */
const WORD_CACHE_SIZE = 50_000;

/**
 * How much of a field's weight a document word earns for a query word: all of it for the word itself, less for
 * a completion of the last (prefix) word, least for a typo.
 */
function wordKind(word: string, term: string, isLast: boolean): number {
  return word === term ? 1 : isLast && word.startsWith(term) ? 0.6 : 0.4;
}

/** Relevance: query words matched exactly first, then the sum of each word's best weight. */
function relevanceOf(exactWords: number, quality: number): number {
  return exactWords * 1e6 + Math.round(quality * 1e3);
}

/** Typos a query word may carry (tried only when the exact words find nothing). */
export function typoBudget(term: string): number | false {
  if (term.length >= TYPO_MIN_LENGTH_2) return 2;
  if (term.length >= TYPO_MIN_LENGTH_1) return 1;
  return false;
}

/** The words of a query as they are indexed. */
export function queryTerms(q: string): string[] {
  return tokenize(q)
    .map(foldText)
    .filter((t) => t !== '');
}

interface Term {
  /** Documents holding the word in any indexed field. */
  df: number;
  /** Documents holding it, per indexed field (by field position). */
  postings: (SlotList | undefined)[];
}

/** A match's slots and relevance: views of the index's scratch, good until its next match. */
export interface TextMatches {
  /** Matching slots, ascending. */
  slots: Int32Array;
  /** Relevance of each, same positions. */
  scores: Float64Array;
}

/**
 * A word index over a collection's searchable fields: for each word, the slots holding it per field (typed,
 * sorted lists), and the words in a radix tree for prefix and typo lookups. Matching follows Typesense: every
 * query word must match (the last one as a prefix, expanded to its most frequent completions); only when that
 * finds nothing are typos tried, with every completion of the last word. Relevance counts exact words first,
 * then each word's best field weight (full for the word itself, less for a completion or a typo), and ignores
 * field length.
 */
export class TextIndex {
  /** Words for exact lookups, and the same words in a radix tree for prefix and typo lookups. */
  private readonly terms = new Map<string, Term>();
  private readonly tree = new SearchableMap<Term>();
  private readonly fieldIndex: Map<string, number>;
  /** Scratch sized to the collection, reused by every match (JS runs one search at a time). */
  private hits = new Uint16Array(0);
  private seen = new Int32Array(0);
  private rowOf = new Int32Array(0);
  private touched = new Int32Array(0);
  private matchedSlots = new Int32Array(0);
  /** Per slot, its best weight in a one-word match. */
  private bestOf = new Float64Array(0);
  private matchedScores = new Float64Array(0);
  /** Per matched slot and query word: its best weight and whether it held the word itself. */
  private best = new Float64Array(0);
  private exact = new Uint8Array(0);
  private stamp = 0;
  private readonly wordCache = new Map<string, string[]>();

  constructor(readonly fields: readonly string[]) {
    this.fieldIndex = new Map(fields.map((f, i) => [f, i]));
  }

  /** The words and their postings as a snapshot tree: per field, every word's list in one array. */
  snapshot(writer: SnapshotWriter): unknown {
    const words = [...this.terms.keys()];
    const terms = words.map((w) => this.terms.get(w)!);
    return {
      words,
      df: writer.array(Int32Array.from(terms, (t) => t.df)),
      fields: this.fields.map((_, f) =>
        packLists(
          terms.map((t) => t.postings[f]),
          writer,
        ),
      ),
    };
  }

  /** Takes the words of a snapshot tree (into an empty index). */
  restore(tree: unknown, reader: SnapshotReader): void {
    const state = tree as { words: string[]; df: unknown; fields: unknown[] };
    if (state.fields.length !== this.fields.length) throw new SnapshotError('the snapshot indexes other text fields');
    const df = reader.array(state.df, Int32Array);
    const postings = state.fields.map((f) => unpackLists(f, reader));
    state.words.forEach((word, i) => {
      const term: Term = { df: df[i]!, postings: postings.map((lists) => lists[i]) };
      this.terms.set(word, term);
      this.tree.set(word, term);
    });
  }

  /** Indexes one document's field texts (one string per indexed field, in order). */
  add(slot: number, texts: readonly string[]): void {
    this.apply(slot, texts, +1);
  }

  remove(slot: number, texts: readonly string[]): void {
    this.apply(slot, texts, -1);
  }

  private apply(slot: number, texts: readonly string[], sign: 1 | -1): void {
    const distinct = new Set<string>();
    texts.forEach((text, field) => {
      for (const word of this.wordsOf(text)) {
        distinct.add(word);
        let term = this.terms.get(word);
        if (!term) {
          if (sign < 0) continue;
          term = { df: 0, postings: [] };
          this.terms.set(word, term);
          this.tree.set(word, term);
        }
        let list = term.postings[field];
        if (sign > 0) {
          if (!list) list = term.postings[field] = new SlotList();
          if (list.length === 0 || list.data[list.length - 1]! < slot) list.push(slot);
          else list.insert(slot);
        } else list?.remove(slot);
      }
    });
    for (const word of distinct) {
      const term = this.terms.get(word);
      if (!term) continue;
      term.df += sign;
      if (term.df <= 0) {
        this.terms.delete(word);
        this.tree.delete(word);
      }
    }
  }

  /** The distinct indexed words of a text; names repeat across a catalog, so recent answers are kept. */
  private wordsOf(text: string): string[] {
    let words = this.wordCache.get(text);
    if (!words) {
      words = [...new Set(tokenize(text).map(foldText))].filter((w) => w !== '');
      if (this.wordCache.size >= WORD_CACHE_SIZE) this.wordCache.clear();
      this.wordCache.set(text, words);
    }
    return words;
  }

  /**
   * Up to `max` words starting with `prefix`, most frequent first (ties alphabetical); the prefix itself comes
   * first when it is a word, so a complete word is never crowded out by longer ones.
   */
  expand(prefix: string, max: number): string[] {
    const found: { term: string; df: number }[] = [];
    for (const [term, entry] of this.tree.atPrefix(prefix)) found.push({ term, df: entry.df });
    found.sort(
      (a, b) => Number(b.term === prefix) - Number(a.term === prefix) || b.df - a.df || (a.term < b.term ? -1 : 1),
    );
    return found.slice(0, max).map((f) => f.term);
  }

  /** Documents matching every query word in one of `fields`, with their relevance. */
  match(terms: readonly string[], fields: readonly string[], weights: readonly number[], size: number): TextMatches {
    const empty = { slots: new Int32Array(0), scores: new Float64Array(0) };
    if (terms.length === 0) return empty;
    const last = terms.length - 1;
    const completions = this.expand(terms[last]!, MAX_PREFIX_CANDIDATES);
    if (completions.length > 0) {
      const exact = this.run(terms, [...terms.slice(0, -1).map((t) => [t]), completions], fields, weights, size);
      if (exact.slots.length > 0) return exact;
    }
    const loose = terms.map((term, i) => {
      const words = new Set([term]);
      if (i === last) for (const [word] of this.tree.atPrefix(term)) words.add(word);
      const budget = typoBudget(term);
      if (budget) for (const word of this.tree.fuzzyGet(term, budget).keys()) words.add(word);
      return [...words];
    });
    return this.run(terms, loose, fields, weights, size);
  }

  private run(
    terms: readonly string[],
    expansions: string[][],
    fields: readonly string[],
    weights: readonly number[],
    size: number,
  ): TextMatches {
    // A field named twice weighs as its last mention; fields not indexed match nothing.
    const weightOf = new Map<number, number>();
    fields.forEach((f, i) => {
      const at = this.fieldIndex.get(f);
      if (at !== undefined) weightOf.set(at, weights[i]!);
    });
    const lists = expansions.map((words) =>
      words.flatMap((word) => {
        const term = this.terms.get(word);
        if (!term) return [];
        return [...weightOf.keys()].flatMap((f) => {
          const list = term.postings[f];
          return list && list.length > 0 ? [{ word, field: f, list }] : [];
        });
      }),
    );
    if (lists.some((l) => l.length === 0)) return { slots: new Int32Array(0), scores: new Float64Array(0) };
    this.ensureScratch(size);
    if (terms.length === 1) return this.single(terms[0]!, lists[0]!, weightOf, size);

    // Every position must match: count positions per slot, smallest position first so the rest only confirm.
    const order = lists
      .map((l, i) => ({ i, total: l.reduce((n, e) => n + e.list.length, 0) }))
      .sort((a, b) => a.total - b.total);
    const touched = this.touched;
    let touchedCount = 0;
    order.forEach(({ i }, rank) => {
      const stamp = ++this.stamp;
      for (const { list } of lists[i]!) {
        const data = list.data;
        for (let p = 0; p < list.length; p++) {
          const slot = data[p]!;
          if (this.seen[slot] === stamp) continue;
          this.seen[slot] = stamp;
          if (rank === 0) {
            this.hits[slot] = 1;
            touched[touchedCount++] = slot;
          } else if (this.hits[slot] === rank) this.hits[slot] = rank + 1;
        }
      }
    });
    const positions = terms.length;
    // The slots every position matched (a count reaches `positions` only then), ascending.
    const slots = this.marked(touchedCount, positions, size);
    for (let t = 0; t < touchedCount; t++) this.hits[touched[t]!] = 0;
    for (let row = 0; row < slots.length; row++) this.rowOf[slots[row]!] = row;

    // Relevance: per position, the best (field weight × kind) over every derived word the document holds.
    const cells = slots.length * positions;
    if (this.best.length < cells) {
      this.best = new Float64Array(Math.max(cells, 2 * this.best.length));
      this.exact = new Uint8Array(this.best.length);
    }
    const best = this.best;
    const exact = this.exact;
    best.fill(0, 0, cells);
    exact.fill(0, 0, cells);
    const scoreStamp = ++this.stamp;
    for (const slot of slots) this.seen[slot] = scoreStamp;
    const derived = new Map<string, { field: number; list: SlotList }[]>();
    for (const entry of lists.flat()) {
      const entries = derived.get(entry.word) ?? [];
      if (!entries.some((e) => e.field === entry.field)) entries.push(entry);
      derived.set(entry.word, entries);
    }
    for (const [word, entries] of derived) {
      const kinds = terms.map((term, q) => wordKind(word, term, q === positions - 1));
      for (const { field, list } of entries) {
        const weight = weightOf.get(field)!;
        const data = list.data;
        for (let p = 0; p < list.length; p++) {
          const slot = data[p]!;
          if (this.seen[slot] !== scoreStamp) continue;
          const row = this.rowOf[slot]! * positions;
          for (let q = 0; q < positions; q++) {
            const value = weight * kinds[q]!;
            if (value > best[row + q]!) best[row + q] = value;
            if (kinds[q] === 1) exact[row + q] = 1;
          }
        }
      }
    }
    const scores = this.matchedScores.subarray(0, slots.length);
    for (let row = 0; row < slots.length; row++) {
      let exactWords = 0;
      let quality = 0;
      for (let q = 0; q < positions; q++) {
        exactWords += exact[row * positions + q]!;
        quality += best[row * positions + q]!;
      }
      scores[row] = relevanceOf(exactWords, quality);
    }
    return { slots, scores };
  }

  /**
   * `run` for a one-word query (what a shopper typing a first word asks): one pass over the word's lists keeps
   * each slot's best weight and whether it held the word itself, so the lists are not read a second time.
   */
  private single(
    term: string,
    entries: { word: string; field: number; list: SlotList }[],
    weightOf: Map<number, number>,
    size: number,
  ): TextMatches {
    const hits = this.hits;
    const bestOf = this.bestOf;
    const touched = this.touched;
    let count = 0;
    for (const { word, field, list } of entries) {
      const held = word === term;
      const value = weightOf.get(field)! * wordKind(word, term, true);
      const data = list.data;
      for (let p = 0; p < list.length; p++) {
        const slot = data[p]!;
        const mark = hits[slot]!;
        if (mark === 0) {
          hits[slot] = held ? 2 : 1;
          bestOf[slot] = value;
          touched[count++] = slot;
          continue;
        }
        if (held) hits[slot] = 2;
        if (value > bestOf[slot]!) bestOf[slot] = value;
      }
    }
    const slots = this.marked(count, 1, size);
    const scores = this.matchedScores.subarray(0, count);
    for (let row = 0; row < count; row++) {
      const slot = slots[row]!;
      scores[row] = relevanceOf(hits[slot] === 2 ? 1 : 0, bestOf[slot]!);
    }
    for (let t = 0; t < count; t++) hits[touched[t]!] = 0;
    return { slots, scores };
  }

  /**
   * The slots among the first `touchedCount` of `touched` whose mark in `hits` is at least `min`, ascending, in
   * scratch (a short prefix matches hundreds of thousands, and new arrays of that size on every keystroke kept
   * the garbage collector busy for longer than the match took). When they are a good part of the collection,
   * one pass over the marks in slot order is cheaper than sorting them.
   */
  private marked(touchedCount: number, min: number, size: number): Int32Array {
    const { hits, touched } = this;
    let count = 0;
    for (let t = 0; t < touchedCount; t++) if (hits[touched[t]!]! >= min) count++;
    const slots = this.matchedSlots.subarray(0, count);
    let at = 0;
    if (count * SCAN_ABOVE_SHARE >= size) {
      for (let slot = 0; slot < size; slot++) if (hits[slot]! >= min) slots[at++] = slot;
    } else {
      for (let t = 0; t < touchedCount; t++) if (hits[touched[t]!]! >= min) slots[at++] = touched[t]!;
      slots.sort();
    }
    return slots;
  }

  private ensureScratch(size: number): void {
    if (this.seen.length >= size) return;
    const capacity = Math.max(size, this.seen.length * 2);
    this.hits = new Uint16Array(capacity);
    this.seen = new Int32Array(capacity);
    this.rowOf = new Int32Array(capacity);
    this.touched = new Int32Array(capacity);
    this.matchedSlots = new Int32Array(capacity);
    this.bestOf = new Float64Array(capacity);
    this.matchedScores = new Float64Array(capacity);
    this.stamp = 0;
  }
}
