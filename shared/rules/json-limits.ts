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

/** An object or array still to walk, with how it was reached: its path is spelled only once a problem is found. */
interface Container {
  value: object;
  depth: number;
  parent: Container | undefined;
  key: string | number;
}

function pathOf(container: Container | undefined, key?: string | number): string {
  const keys: (string | number)[] = key === undefined ? [] : [key];
  for (let c = container; c?.parent; c = c.parent) keys.push(c.key);
  return keys.reduceRight<string>((path, k) => memberPath(path, k), '');
}

/** Where a JSON value breaks RULES 14.15 (its member path, `''` for the value itself) and how. */
export interface JsonValueIssue {
  path: string;
  problem: string;
}

/**
 * What is wrong with a parsed JSON value under RULES 14.15, naming where, or undefined. Walked with a stack of its
 * own, so the walk itself cannot overflow; a value with nothing wrong costs a look at each member and no more.
 */
export function jsonValueIssue(value: unknown): JsonValueIssue | undefined {
  const unkeepable = (problem: string) => `${problem}, which no text kept here may hold`;
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { path: '', problem: unkeepable(problem) } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const stack: Container[] = [{ value, depth: 0, parent: undefined, key: '' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (next.depth >= MAX_JSON_DEPTH)
      return { path: pathOf(next), problem: `nests deeper than ${MAX_JSON_DEPTH} levels` };
    const look = (key: string | number, member: unknown): JsonValueIssue | undefined => {
      if (typeof member === 'string') {
        const problem = textProblem(member);
        if (problem) return { path: pathOf(next, key), problem: unkeepable(problem) };
      } else if (typeof member === 'object' && member !== null) {
        stack.push({ value: member, depth: next!.depth + 1, parent: next, key });
      }
      return undefined;
    };
    if (Array.isArray(next.value)) {
      for (let i = 0; i < next.value.length; i++) {
        const issue = look(i, next.value[i]);
        if (issue) return issue;
      }
    } else {
      for (const key in next.value) {
        if (!Object.hasOwn(next.value, key)) continue;
        const keyProblem = textProblem(key);
        if (keyProblem) return { path: pathOf(next), problem: `has a member name that ${unkeepable(keyProblem)}` };
        const issue = look(key, (next.value as Record<string, unknown>)[key]);
        if (issue) return issue;
      }
    }
  }
  return undefined;
}

/** The same as a sentence: `billing.name holds a NUL character…`, the value itself called `name`. */
export function jsonValueProblem(value: unknown, name = 'the body'): string | undefined {
  const issue = jsonValueIssue(value);
  return issue && `${issue.path || name} ${issue.problem}`;
}
