/**
 * RULES 14.15: what a JSON document the server is sent may hold. No answer or document of ours nests deeper than a
 * handful of levels, so a deeper one is refused before anything walks it recursively (a stack overflow is a 500);
 * and no text of ours holds a NUL or a lone surrogate, which PostgreSQL cannot store (a failed write is a 500, or
 * worse, a batch of other people's rows lost with it).
 */
export const MAX_JSON_DEPTH = 32;

/** A surrogate not paired with its other half (`u` mode matches `\p{Cs}` only when unpaired). */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `text` cannot be kept as text, or undefined. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'holds a NUL character (\\u0000)';
  return LONE_SURROGATE.test(text) ? 'holds half of a surrogate pair, alone' : undefined;
}

/** A member's place in a JSON value, as a shopper's tools write it: `items[2].name`. */
function memberPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (parent ? `${parent}.${key}` : key) : `${parent}[${JSON.stringify(key)}]`;
}

/**
 * What is wrong with a parsed JSON value under RULES 14.15, naming where, or undefined. Walked with a stack of its
 * own, so the walk itself cannot overflow.
 */
export function jsonValueProblem(value: unknown, name = 'the body'): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const at = next.path || name;
    if (typeof next.value === 'string') {
      const problem = textProblem(next.value);
      if (problem) return `${at} ${problem}, which no text kept here may hold`;
      continue;
    }
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth >= MAX_JSON_DEPTH) return `${at} nests deeper than ${MAX_JSON_DEPTH} levels`;
    const entries: [string | number, unknown][] = Array.isArray(next.value)
      ? next.value.map((member, i) => [i, member])
      : Object.entries(next.value);
    for (const [key, member] of entries) {
      if (typeof key === 'string') {
        const problem = textProblem(key);
        if (problem) return `a member name in ${at} ${problem}, which no text kept here may hold`;
      }
      stack.push({ value: member, path: memberPath(next.path, key), depth: next.depth + 1 });
    }
  }
  return undefined;
}

/**
 * How deep the brackets of a JSON (or JSON with comments) text nest, counted without parsing it: strings and
 * comments skipped, so a parser that recurses is handed only a text it can walk (RULES 14.15).
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
    } else if (c === '[' || c === '{') {
      deepest = Math.max(deepest, ++depth);
    } else if (c === ']' || c === '}') {
      depth--;
    }
  }
  return deepest;
}
