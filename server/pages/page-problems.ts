import { readFileSync } from 'node:fs';
import { pagePath, RESULTS_PATH } from '../../shared/rules/site-paths.js';
import { SearchResultsQuerySchema } from '../../shared/schemas/entities.js';
import { MAX_QUERY_LENGTH } from '../../shared/rules/constants.js';
import { escapeHtml } from './page-document.js';
import { percentDecoded } from '../../shared/rules/percent-decoding.js';
import { BAD_PATH_ESCAPE } from '../http/errors.js';

/** Why a page request is answered without drawing the page: what the page says, and the status it goes with. */
export interface PageProblem {
  /** A 4xx: the page's own problem (400, 429), or the API's refusal of the answer the page is drawn from. */
  status: number;
  /** The error code, as the API would name it (for the log line). */
  code: string;
  title: string;
  message: string;
}

/**
 * What is wrong with a page request before anything is read for it, or undefined: a target that is not a path on
 * this site (the absolute form, `GET http://other.example/ HTTP/1.1`, which only a proxy is sent), a path whose
 * escapes spell no text, or a search longer than any search the API answers (`MAX_QUERY_LENGTH`, the API's own
 * limit on `q`).
 */
export function pageRequestProblem(originalUrl: string, pathname: string): PageProblem | undefined {
  if (!originalUrl.startsWith('/'))
    return {
      status: 400,
      code: 'bad_request_target',
      title: 'Bad request',
      message:
        'This request names a full address (scheme and host) where a page of this site is asked for by its ' +
        'path alone, such as /events/…. Ask for the path.',
    };
  if (percentDecoded(pathname) === undefined) return { status: 400, title: 'Bad address', ...BAD_PATH_ESCAPE };
  // The path as the page route reads it: `/results-general/` is the search page too (RULES 2.6).
  if (pagePath(pathname) === RESULTS_PATH) {
    const q = originalUrl.indexOf('?');
    // Read as the page reads it (URLSearchParams: plus signs are spaces, the first `kwds` counts), and measured as
    // the API measures `q` (its own schema: characters, so an emoji is one).
    const kwds = new URLSearchParams(q < 0 ? '' : originalUrl.slice(q + 1)).get('kwds') ?? '';
    if (!SearchResultsQuerySchema.shape.q.safeParse(kwds).success)
      return {
        status: 400,
        code: 'query_too_long',
        title: 'Search too long',
        message:
          `A search can be at most ${MAX_QUERY_LENGTH} characters long; this one has ${[...kwds].length}. ` +
          'Try a few words.',
      };
  }
  return undefined;
}

/** The page a rate limit refuses: what is limited, and when to come back. */
export function tooManyRequests(what: string): PageProblem {
  return {
    status: 429,
    code: 'rate_limited',
    title: 'Too many requests',
    message: `Too many ${what} requests from your address in the last minute. Wait a moment, then reload the page.`,
  };
}

const ROOT = '<div id="root"></div>';
const PLAIN_DOCUMENT =
  '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="UTF-8" />\n</head>\n' + `<body>${ROOT}</body>\n</html>\n`;

/**
 * The app shell (`index.html`) as the page of a problem: its title and message in place of the app, with the
 * site's stylesheet but none of its script, so the client's router does not draw, and ask the API for, the very
 * address that was refused. Read nothing, rendered nothing: a flood of bad requests costs no render.
 */
export class ProblemPages {
  private readonly before: string;
  private readonly after: string;

  constructor(indexFile: string) {
    const shell = readFileSync(indexFile, 'utf8')
      .replace(/\s*<script\b[^>]*>[\s\S]*?<\/script>/g, '')
      .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
      .replace(/\s*<meta name="description"[^>]*>/, '')
      .replace(/\s*<title>[^<]*<\/title>/, '');
    // A shell without the usual frame (a test's one-line page) gives way to a plain document.
    const template = shell.includes('</head>') && shell.includes(ROOT) ? shell : PLAIN_DOCUMENT;
    const headEnd = template.indexOf('</head>');
    const root = template.indexOf(ROOT);
    this.before = template.slice(0, headEnd);
    this.after = template.slice(headEnd, root);
    this.rest = template.slice(root + ROOT.length);
  }

  private readonly rest: string;

  /** The page's HTML: noindex, its title as the heading, the message, and a way on (a search, the home page). */
  html(problem: PageProblem): string {
    const title = escapeHtml(problem.title);
    return (
      `${this.before}    <title>${title}</title>\n    <meta name="robots" content="noindex" />\n  ${this.after}` +
      `<div id="root"><main id="main" class="site-main"><section aria-labelledby="problem-title" class="not-found">` +
      `<h1 id="problem-title">${title}</h1><p>${escapeHtml(problem.message)}</p>` +
      `<form action="${RESULTS_PATH}" method="get" role="search" class="search-form">` +
      `<label for="problem-search">Search for an artist, team or venue</label>` +
      `<input id="problem-search" name="kwds" type="search" maxlength="${MAX_QUERY_LENGTH}" autocomplete="off" />` +
      `<button type="submit">Search</button></form>` +
      `<p><a href="/">Back to the home page</a></p></section></main></div>${this.rest}`
    );
  }
}
