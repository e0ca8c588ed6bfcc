import {
  createScanner,
  findNodeAtLocation,
  getNodeValue,
  type Node,
  parse,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';
import { jsonPath } from '../../shared/schemas/zod.js';
import { MAX_JSON_DEPTH } from '../../shared/rules/json-limits.js';

/** One problem in a segment file, placed where an editor can show it. */
export interface SegmentProblem {
  file: string;
  /** 1-based: the offending value, the object missing a field, or where the JSON stops being JSON. */
  line: number;
  column: number;
  /** JSON path inside the file, e.g. `rows[2].size`; empty for the file as a whole. */
  path: string;
  /** The offending value as JSON, shortened when long; absent when a field is missing. */
  value?: string;
  /** What is wrong and what is allowed, as a sentence. */
  message: string;
}

/**
 * Places what is wrong with a segment file where a merchandiser can act on it: the line and column of the
 * offending value, what was found there, and the sentence that says what is allowed (`issue-sentences.ts`
 * writes those for the schema's issues). Every problem the CLI and the studio show is placed here.
 */

/** A problem found at a JSON path, before it is placed in its file's text. */
export interface PathProblem {
  at: (string | number)[];
  message: string;
  /** `key`: the field's name is the mistake (an unknown field); `value`: what it holds. */
  anchor?: 'key' | 'value';
  /** Shown when the value at `at` is not the one to show (an unknown field's name, a page folder). */
  value?: string;
}

/** The longest value a problem quotes; a longer one is cut with an ellipsis. */
export const VALUE_MAX_CHARS = 40;

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: before.length - lineStart + 1 };
}

/** A value as JSON, cut to `VALUE_MAX_CHARS`. */
export function shortValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > VALUE_MAX_CHARS ? `${text.slice(0, VALUE_MAX_CHARS - 1)}…` : text;
}

/** `file:line:column: message`, with the value when the message does not already show it. */
export function formatProblem(p: SegmentProblem): string {
  const value = p.value !== undefined && !p.message.includes(p.value) ? ` (found ${p.value})` : '';
  return `${p.file}:${p.line}:${p.column}: ${p.message}${value}`;
}

/**
 * How deep the brackets of a segment file's text nest (RULES 14.15), counted with the same scanner the tolerant
 * parser reads it with, which does not recurse: the two can never disagree about where a string or a comment ends.
 */
export function jsonTextDepth(text: string): number {
  const scanner = createScanner(text, false);
  let depth = 0;
  let deepest = 0;
  for (let token: number = scanner.scan(); token !== TOKEN.end; token = scanner.scan()) {
    if (token === TOKEN.openBrace || token === TOKEN.openBracket) deepest = Math.max(deepest, ++depth);
    else if (token === TOKEN.closeBrace || token === TOKEN.closeBracket) depth--;
  }
  return deepest;
}

/** The scanner's `SyntaxKind`s the count reads (a `const enum` in its types, so named here). */
const TOKEN = { openBrace: 1, closeBrace: 2, openBracket: 3, closeBracket: 4, end: 17 } as const;

/** One segment file's text, parsed once, to place problems in it. */
export class SegmentSource {
  private parsedTree: Node | undefined | null = null;
  private deep: boolean | undefined;

  constructor(
    readonly file: string,
    readonly text: string,
  ) {}

  /** Whether the text nests deeper than RULES 14.15 lets anything walk it, scanned once. */
  private get tooDeep(): boolean {
    return (this.deep ??= jsonTextDepth(this.text) > MAX_JSON_DEPTH);
  }

  /** The file's syntax tree, built only when a problem must be placed: a valid set never needs one. */
  private get tree(): Node | undefined {
    if (this.parsedTree === null) this.parsedTree = this.tooDeep ? undefined : parseTree(this.text);
    return this.parsedTree;
  }

  /** The file's JSON, or the first syntax error as a problem (what follows one is seldom a mistake of its own). */
  parse(): { value: unknown } | { problem: SegmentProblem } {
    // RULES 14.15: the tolerant parser recurses; a file deeper than any segment file is refused before it is walked.
    if (this.tooDeep)
      return {
        problem: this.whole(`brackets nest deeper than ${MAX_JSON_DEPTH} levels: no segment file needs as many`),
      };
    try {
      return { value: JSON.parse(this.text) as unknown };
    } catch {
      // Not JSON: the tolerant parser says where and why, in words.
    }
    const errors: ParseError[] = [];
    const value: unknown = parse(this.text, errors, {
      disallowComments: true,
      allowTrailingComma: false,
      allowEmptyContent: false,
    });
    const first = errors[0];
    if (!first) return { value };
    const { offset, message } = syntaxMessage(this.text, first);
    const token = this.text.slice(offset, offset + Math.max(first.length, 0)).trim();
    return {
      problem: {
        file: this.file,
        ...lineColumn(this.text, offset),
        path: '',
        ...(token ? { value: shortValue(token) } : {}),
        message,
      },
    };
  }

  /** A problem at a JSON path: at the value, at the field's name, or at the nearest object that holds it. */
  place(p: PathProblem): SegmentProblem {
    const exact = this.tree && findNodeAtLocation(this.tree, p.at);
    let node = exact && p.anchor === 'key' && exact.parent?.type === 'property' ? exact.parent.children?.[0] : exact;
    for (let up = p.at.length - 1; !node && this.tree && up >= 0; up--)
      node = findNodeAtLocation(this.tree, p.at.slice(0, up));
    const value = p.value ?? (exact && p.anchor !== 'key' ? shortValue(getNodeValue(exact)) : undefined);
    return {
      file: this.file,
      ...lineColumn(this.text, node?.offset ?? 0),
      path: jsonPath(p.at),
      ...(value !== undefined ? { value } : {}),
      message: p.message,
    };
  }

  /** A problem with the file as a whole (its name, its place in the set). */
  whole(message: string, value?: string): SegmentProblem {
    return { file: this.file, line: 1, column: 1, path: '', ...(value !== undefined ? { value } : {}), message };
  }
}

function syntaxMessage(text: string, error: ParseError): { offset: number; message: string } {
  const code = printParseErrorCode(error.error);
  const before = text.slice(0, error.offset).trimEnd();
  if (
    (code === 'PropertyNameExpected' || code === 'ValueExpected') &&
    before.endsWith(',') &&
    /^\s*[}\]]/.test(text.slice(error.offset))
  ) {
    return {
      offset: before.length - 1,
      message: 'not valid JSON: JSON allows no comma after the last item: remove this comma',
    };
  }
  const plain: Record<string, string> = {
    InvalidSymbol: 'this is not JSON here: text needs double quotes, and true, false and null are lower-case',
    InvalidNumberFormat: 'this is not a number JSON can read',
    PropertyNameExpected: 'a field name in double quotes was expected here',
    ValueExpected: 'a value was expected here',
    ColonExpected: 'a colon (:) was expected here, between the field name and its value',
    CommaExpected: 'a comma (or a closing bracket) is missing before this',
    CloseBraceExpected: 'a } is missing: an object is not closed',
    CloseBracketExpected: 'a ] is missing: a list is not closed',
    EndOfFileExpected: 'there is more after the end of the JSON: remove it',
    InvalidCommentToken: 'JSON has no comments: remove this one',
    UnexpectedEndOfComment: 'JSON has no comments: remove this one',
    UnexpectedEndOfString: 'this text is not closed with a double quote',
    UnexpectedEndOfNumber: 'this number is cut short',
    InvalidUnicode: 'this \\u escape needs four hex digits',
    InvalidEscapeCharacter: 'this backslash escape is not one JSON knows',
    InvalidCharacter: 'this character must be escaped inside text',
  };
  const message =
    text.trim() === '' ? 'the file is empty: it needs a JSON object' : (plain[code] ?? 'this is not valid JSON');
  return { offset: error.offset, message: `not valid JSON: ${message}` };
}
